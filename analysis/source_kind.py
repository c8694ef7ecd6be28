"""Files named like OpenCL C that are not OpenCL C (issue 29, item 4).

Projects keep other text under OpenCL's extensions: CUDA sources beside the OpenCL ones (the
build picks one), code-generator templates written as C string literals (clBLAS), and kernels
wrapped for `#include` into C++ as a string (`R"( ... )"` pieces, `MSTRINGIFY( ... )`). A
compiler never sees such a file as it is, so every report on it would be noise: it is skipped
with one note (CL006). Recognised by the first code after comments and directives, or, for
CUDA and C++, by a construct OpenCL C cannot have anywhere in the file; templates a host
renders first (Jinja, Mako) by their placeholders in code, outside comments and strings.
"""

from __future__ import annotations

import re

from cllint.analysis.lazy_re import LazyPattern, lazy

# comments, blank space and directive lines (`#ifndef PURE_CL` may guard a template's C wrapper)
_LEADING = lazy(rb"(?:\s+|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/|#[^\n]*)*")

# What the first code says.
_FIRST: list[tuple[str, LazyPattern]] = [
    ("a C string holding a code generator's template",
     lazy(rb"(?:static\s+)?const\s+char\s*\*\s*\w+\s*(?:\[\s*\])?\s*=\s*\"")),
    # One `R"( ... )"` around the whole file is read by the grammar (CLBlast's `.opencl`);
    # several pieces joined by the C++ compiler are not.
    ("C++ raw string literals in several pieces holding kernel text (the host includes it into a string)",
     lazy(rb"(?:u8|[uUL])?R\"([^\s()\\]{0,16})\((?:.(?!\)\1\"))*.\)\1\"\s*(?://[^\n]*\s*)*(?:u8|[uUL])?R\"", re.S)),
    ("a macro that turns the text into a C string (the host includes it into a string)",
     lazy(rb"[A-Z_][A-Z0-9_]*STRINGIFY[A-Z0-9_]*\s*\(")),
    # `static const char* const src = TO_STRING(` ... `);`: program scope in OpenCL C never
    # initializes from a call, so this is C the host includes, the kernel text its argument.
    ("a C string declaration whose macro turns the text into a C string (the host includes it)",
     lazy(rb"(?:static\s+)?const\s+char\s*(?:\*\s*(?:const\s+)?)?\w+\s*(?:\[\s*\])?\s*=\s*[A-Za-z_]\w*\s*\(")),
]
# How the first code starts for each of `_FIRST` to match: tested where it starts (the check
# runs on every keystroke: four scans of a 90 KB file for the words they need cost ~0.2 ms), and
# a file that starts otherwise never compiles the pattern (~1 ms of a one-line kernel's start-up).
_DECLARATION_STARTS = (b"static", b"const")
_RAW_STRING_STARTS = (b'R"', b'u8R"', b'uR"', b'UR"', b'LR"')
_UPPER_WORD = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def _may_start(kind: int, data: bytes, at: int) -> bool:
    """Whether `_FIRST[kind]` can match at `at`: its fixed start is there."""
    if kind == 1:
        return data.startswith(_RAW_STRING_STARTS, at)
    if kind == 2:  # `[A-Z_][A-Z0-9_]*STRINGIFY[A-Z0-9_]*`: one upper-case word from `at`
        end = at
        while end < len(data) and data[end] in _UPPER_WORD:
            end += 1
        return data.find(b"STRINGIFY", at, end) != -1
    return data.startswith(_DECLARATION_STARTS, at)
# What the whole file may show, each after a cheap test for a word it needs (the check runs on
# every keystroke: a 90 KB file must not be scanned line by line for CUDA).
_ANYWHERE: list[tuple[str, LazyPattern]] = [
    ("CUDA source", lazy(
        rb"^[ \t]*(?:#[ \t]*include[ \t]*[<\"]cuda|extern[ \t]+\"C\"[ \t]+__global__|(?:static[ \t]+)?__global__[ \t]+void\b|"
        rb"(?:(?:static|inline|__forceinline__|__noinline__|__host__)[ \t]+)*__device__[ \t]+\w)",
        re.M)),
    # A template head may run over lines, comments between (`template<` / `typename K, // keys`).
    ("C++ source", lazy(rb"^[ \t]*(?:template\s*<(?:\s|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)*(?:typename|class)\b|"
                              rb"namespace[ \t]+\w+[ \t]*\{|"
                              rb"#[ \t]*include[ \t]*<(?:iostream|vector|string|cstdio|cstdlib|cmath)>)", re.M)),
]


_DEFINES_CUDA_WORD = lazy(rb"^[ \t]*#[ \t]*define[ \t]+(?:__device__|__global__|__forceinline__|__host__)\b", re.M)
_NEEDS = ((b"cuda", b"__global__", b"__device__"), (b"template", b"namespace", b"#include <", b"# include <"))


_NONE: frozenset[bytes] = frozenset()


def not_opencl_reason(data: bytes, absent: frozenset[bytes] = _NONE) -> str | None:
    """Why a file with an OpenCL extension is not OpenCL C, or None when it may be. `absent`:
    needles (`NEEDLES`) known not to be in `data`, whose scans are skipped (an editor knows
    it of the text outside the bodies an edit changed: analysis/incremental.py)."""
    if b"RUN:" not in absent and b"RUN:" in data:  # a compiler test: its lit RUN lines say how it is built (lit_runs.py)
        from cllint.analysis.lit_runs import lit_kind_reason

        lit = lit_kind_reason(data)
        if lit is not None:
            return lit
    first = _LEADING.match(data)
    at = first.end() if first else 0
    for kind, (reason, pattern) in enumerate(_FIRST):
        if _may_start(kind, data, at) and pattern.match(data, at):
            return reason
    template = _template_engine(data, absent)
    if template is not None:
        return f"a {template} template (the host renders its placeholders before building)"
    if _printf_format(data, absent):
        return "a printf format (the host fills its '%s' lines with code before building)"
    for (reason, pattern), words in zip(_ANYWHERE, _NEEDS):
        if not any(w not in absent and w in data for w in words):
            continue
        if reason == "CUDA source" and _DEFINES_CUDA_WORD.search(data):
            continue  # one source for both: OpenCL defines CUDA's words away (`#define __device__`)
        for m in pattern.finditer(data):
            if not _in_language_arm(data, m.start()):
                return reason  # (inside `#ifdef __cplusplus` it is one of the file's builds)
    if _class_definition(data, absent) or _functional_cast(data, absent):
        return "C++ source"
    return None


# A functional cast right after an operator (`-int(v >> 31)`, `= float(i)`): C++ (OpenCL C++,
# built with `-x clc++`). In C a type name after an operator starts only a parenthesised cast.
_FUNCTIONAL_CAST = lazy(rb"[-+*/%=<>!&|^~?][ \t]*(?:u?(?:char|short|int|long)|float|double|half|bool)\((?![ \t]*[*^])")
_CAST_NEEDS = (b"char(", b"short(", b"int(", b"long(", b"float(", b"double(", b"half(", b"bool(")


# Below this size the `in` tests cost less than compiling a pattern (a one-line kernel's start-up).
_SCAN_AT_ONCE = 16 * 1024
# Some word of _CAST_NEEDS, in one scan: each `(` (found as fast as `bytes.find`) is looked
# behind, where eight `in` tests scanned the whole file eight times (every keystroke pays them).
_CAST_WORD = lazy(rb"\((?:" + b"|".join(b"(?<=" + re.escape(w) + b")" for w in _CAST_NEEDS) + rb")")


def _has_cast_word(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    if absent.issuperset(_CAST_NEEDS):
        return False
    if len(data) < _SCAN_AT_ONCE:
        return any(w not in absent and w in data for w in _CAST_NEEDS)
    return _CAST_WORD.search(data) is not None


def _functional_cast(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    # a needed word first: the pattern's first character is any operator, slow to scan for per keystroke
    if not _has_cast_word(data, absent) or _FUNCTIONAL_CAST.search(data) is None:
        return False
    code = blank_comments_and_strings(data)
    return any(not _in_language_arm(code, m.start()) for m in _FUNCTIONAL_CAST.finditer(code))


# A class whose first member is an access specifier (AMD's static C++ kernel language), tried only
# where a line starts with `class`: the word alone (`this class of kernels`) costs no scan.
_CLASS_HEAD = lazy(rb"class[ \t]+[A-Za-z_]\w*[^;{}()]*\{\s*(?:public|private|protected)[ \t]*:")


def _class_definition(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    i = -1 if b"class" in absent else data.find(b"class")
    while i != -1:
        line = data.rfind(b"\n", 0, i) + 1
        if not data[line:i].strip(b" \t") and _CLASS_HEAD.match(data, i) and not _in_language_arm(data, i):
            return True
        i = data.find(b"class", i + 5)
    return False


# Comments and literals, where template markers are only text (`// {{{` fold markers,
# `"${x}"` in a printf string, `{%0, %1}` in inline assembly).
_TEXT = lazy(rb'//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
_JINJA_STATEMENT = lazy(
    rb"\{%-?\s*(?:if|elif|else|endif|for|endfor|set|macro|endmacro|include|import|block|endblock|"
    rb"raw|endraw|call|endcall|filter|with|endwith)\b")
# `{{ name }}`, `{{ cfg.size | int }}`, `{{ f(x) }}`: one dotted name, maybe a filter or a call.
# `{{0}}`, `{{a, b}}` and a braced initializer after `=`, `,`, `(`, `{` or `)` are C.
_JINJA_EXPRESSION = lazy(
    rb"\{\{-?[ \t]*[A-Za-z_][\w.]*(?:[ \t]*\|[^{}\n]*|[ \t]*\([^{}\n]*\)|[ \t]*\[[^{}\n]*\])?[ \t]*-?\}\}")
_INITIALIZER_BEFORE = lazy(rb"[=,({)]\s*$")  # (C has no `return {...}`)
_MAKO_EXPRESSION = lazy(rb"\$\{\s*[A-Za-z_]")
_MAKO_CLOSER = lazy(rb"%[ \t]*end(?:if|for|while)\b")
_PERCENTS_TRIED = 64  # past this many `%`, the pattern's own scan (in C) costs less


def has_mako_closer(data: bytes) -> bool:
    """`_MAKO_CLOSER` in `data`, tried at each `%` (found by memchr): the pattern's scan tries
    every byte (0.1 ms of a 90 KB file with two `%`, every keystroke: issue 32)."""
    i, tried = data.find(b"%"), 0
    while i != -1:
        tried += 1
        if tried > _PERCENTS_TRIED:
            return _MAKO_CLOSER.search(data) is not None
        if _MAKO_CLOSER.match(data, i):
            return True
        i = data.find(b"%", i + 1)
    return False
_MAKO_LINE = lazy(rb"^[ \t]*%[ \t]*(?:if|elif|else|endif|for|endfor|while|endwhile)\b", re.M)


def blank_comments_and_strings(data: bytes) -> bytes:
    """`data` with C comments and string and character literals blanked, offsets kept: what is
    left is code (used for host code too, whose comments and strings are C's or close)."""
    return _TEXT.sub(lambda m: b" " * (m.end() - m.start()), data)


_TEMPLATE_NEEDS = (b"{%", b"{{", b"${")
# `{{`, `${` or `{%` somewhere, in one scan: each `{` looked at around (as fast as `bytes.find`).
_TEMPLATE_MARKER = lazy(rb"\{(?:(?<=[{$]\{)|%)")


def _has_template_marker(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    if absent.issuperset(_TEMPLATE_NEEDS):
        return False
    if len(data) < _SCAN_AT_ONCE:
        return any(w not in absent and w in data for w in _TEMPLATE_NEEDS)
    return _TEMPLATE_MARKER.search(data) is not None


def _template_engine(data: bytes, absent: frozenset[bytes] = _NONE) -> str | None:
    """`Jinja` or `Mako` when code (not a comment or a string) holds the engine's markers.
    Comments and strings are blanked only when the raw text has a candidate (a keystroke in a
    2 MB file must not pay for it)."""
    code: bytes | None = None
    braces = _has_template_marker(data, absent)  # one scan for the three brace markers, not three
    # Each after the marker it needs (`bytes.find` in C): most files compile no pattern here.
    for engine, marker, pattern in (("Jinja", b"{%", _JINJA_STATEMENT), ("Jinja", b"{{", _JINJA_EXPRESSION),
                                    ("Mako", b"${", _MAKO_EXPRESSION), ("Mako", b"end", _MAKO_LINE)):
        if (pattern is not _MAKO_LINE and not braces) or marker in absent or marker not in data:
            continue
        if pattern is _MAKO_LINE and (b"%" in absent or not has_mako_closer(data)):
            continue  # (a `% if` line needs its `% endif`; scanning 60,000 lines for `%` is slow)
        if pattern.search(data) is None:
            continue
        if code is None:
            code = blank_comments_and_strings(data)
        for m in pattern.finditer(code):
            if pattern is not _JINJA_EXPRESSION or not _INITIALIZER_BEFORE.search(code, max(0, m.start() - 40), m.start()):
                return engine
    return None


# A printf conversion alone on its line (`%s`, `%s;`, `%d,`): a host's format, filled with code.
_PRINTF_LINE = lazy(rb"^[ \t]*%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z)?[sdiu][ \t]*[;,]?[ \t]*$", re.M)
_PRINTF_NEEDS = (b"%s", b"%d", b"%i", b"%u")


_PRINTF_WORD = lazy(rb"%[sdiu]")  # some word of _PRINTF_NEEDS, in one scan for `%`, not four


def _has_printf_word(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    if absent.issuperset(_PRINTF_NEEDS):
        return False
    if len(data) < _SCAN_AT_ONCE:
        return any(w not in absent and w in data for w in _PRINTF_NEEDS)
    return _PRINTF_WORD.search(data) is not None


def _printf_format(data: bytes, absent: frozenset[bytes] = _NONE) -> bool:
    """A placeholder line in code after a line that ends a statement, a declaration's
    opening or a directive (after an operand, `%s;` is C's remainder `a % s`)."""
    if not _has_printf_word(data, absent) or _PRINTF_LINE.search(data) is None:
        return False
    code = blank_comments_and_strings(data)
    for m in _PRINTF_LINE.finditer(code):
        before = code[:m.start()].rstrip()
        line = before[before.rfind(b"\n") + 1:].lstrip()
        if not before or line.startswith(b"#") or before[-1:] in b";{},(":
            return True
    return False


_CONDITIONAL = lazy(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.M)
_LANGUAGE = lazy(rb"__cplusplus|__CUDACC__|__CUDA_ARCH__|__HIP|__NVCC__|CUDA|__OPENCL")


def _in_language_arm(data: bytes, offset: int) -> bool:
    """Whether `offset` sits in a conditional group that picks a language (`#ifdef
    __cplusplus`, `#if defined(__CUDACC__)`, `#ifdef __OPENCL_VERSION__ ... #else`)."""
    stack: list[bool] = []
    for m in _CONDITIONAL.finditer(data, 0, offset):
        kind = m.group(1)
        if kind in (b"if", b"ifdef", b"ifndef"):
            stack.append(_LANGUAGE.search(m.group(2)) is not None)
        elif kind == b"elif" and stack:
            stack[-1] = stack[-1] or _LANGUAGE.search(m.group(2)) is not None
        elif kind == b"endif" and stack:
            stack.pop()
    return any(stack)


_RAW_OPEN = lazy(rb"(?:u8|[uUL])?R\"([^\s()\\\"]{0,16})\(")


def without_raw_string(data: bytes) -> bytes:
    """A file that is one C++ raw string around kernel text (`R"( ... )"`, which the grammar
    reads) as a compiler sees the text: the two markers blanked, every offset kept."""
    first = _LEADING.match(data)
    at = first.end() if first else 0
    m = _RAW_OPEN.match(data, at)
    if m is None:
        return data
    close = b")" + m.group(1) + b'"'
    end = data.rfind(close)
    if end < m.end():
        return data
    return data[:m.start()] + b" " * (m.end() - m.start()) + data[m.end():end] + b" " * len(close) + data[end + len(close):]


# Every fixed string a test above looks for before it reads further: where one is known to be
# absent, the tests that need it are skipped (`not_opencl_reason`'s `absent`).
NEEDLES: tuple[bytes, ...] = (b"RUN:", *_TEMPLATE_NEEDS, b"end", b"%", *_PRINTF_NEEDS, *_NEEDS[0], *_NEEDS[1],
                              b"class", *_CAST_NEEDS)
NEEDLE_SPAN = max(len(w) for w in NEEDLES)


def absent_needles(data: bytes, among: frozenset[bytes] | tuple[bytes, ...] = NEEDLES) -> frozenset[bytes]:
    """The needles (of `among`) that `data` does not hold."""
    return frozenset(w for w in among if w not in data)
