"""Macro names the workspace's host code passes to the OpenCL compiler with `-D`.

Hosts build their options at run time (`"-D T=" + type_name`, `f"-DTILE={tile}"`, a C++
macro that stringizes its argument after `" -D "`), so the values are rarely knowable, but the
names are: every `-D NAME` written in host code or build files, and every argument a host macro
stringizes after a `-D` (`#define DefineKey(arg) " -D " #arg` makes `DefineKey(kDim)` a `-D
kDim`). A kernel's use of such a name is the host's business: no report says it is undeclared.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .host_files import CLOJURE_SUFFIXES, HOST_NAMES


# Packaging scripts: their file lists (`package_data`, `data_files`) say what installs, in no
# program's order.
PACKAGING_NAMES = frozenset({"setup.py"})

# `-D NAME` after a quote, space, `(` or `,` (an option in a string, a list, a command line).
# `-D NAME` at a string's or word's start, or after a format placeholder (`"%s-D NAME=%lu"`:
# the host prepends other options to it).
# Found by the `-D` (a literal the regex engine scans for fast: a large host tree is read in
# the editor's first seconds), what comes before checked apart.
_OPTION = lazy(rb"-D[ \t]*([A-Za-z_]\w*)")
_BEFORE_OPTION = frozenset(b"\"'(,[{ \t\n\r\f\v")


def _options(text: bytes) -> list[bytes]:
    out = []
    for m in _OPTION.finditer(text):
        at = m.start()
        if at == 0 or text[at - 1] in _BEFORE_OPTION or text[at - 2:at] == b"%s":
            out.append(m.group(1))
    return out
# A macro whose body stringizes one of its parameters right after a `-D` in a string.
_STRINGIZING = lazy(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n\\]|\\.)*)", re.S)
_AFTER_D = lazy(rb"-D[ \t]*\"[ \t]*#[ \t]*([A-Za-z_]\w*)")


def _arguments(text: bytes, at: int, limit: int = 2000) -> list[bytes]:
    """The top-level arguments of a call whose `(` ends just before `at` (nested calls and
    string or character literals kept whole: `"-DN=(1,2)"` is one argument)."""
    depth = 0
    args: list[bytes] = []
    start = at
    quote = 0
    i = at
    end = min(len(text), at + limit)
    while i < end:
        c = text[i]
        i += 1
        if quote:
            if c == 0x5C:  # backslash: the next byte is escaped
                i += 1
            elif c == quote:
                quote = 0
            continue
        if c in (0x22, 0x27):  # '"', "'"
            quote = c
        elif c in b"([{":
            depth += 1
        elif c in b")]}":
            if depth == 0:
                args.append(text[start:i - 1].strip())
                return args
            depth -= 1
        elif c == 44 and depth == 0:  # ','
            args.append(text[start:i - 1].strip())
            start = i
    return args


# A `-D` whose name the host computes: `" -D " + name`, `"-D" << x`, `f"-D{name}"`,
# `"-D%s" % x`, `["-D", name]`.
# (a C++ string literal may carry the `s` or `sv` suffix: `" -D"s + name`)
_COMPUTED = lazy(rb"""-D[ \t]*(?:["'](?:sv?\b)?\s*(?:\+|<<|,|\)|\]|;)|\{|%[sdi]|\$\{)""")
_DEFINE_BODY = lazy(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]*\(((?:[^\n\\]|\\.)*)", re.S)


def computed_option_hosts(hosts: dict[Path, bytes]) -> list[Path]:
    """Host files that pass `-D` options whose names are computed at run time, themselves or
    through a macro that builds one (`#define DefineKeyFromStr(arg) " -D " + std::string(arg)`)."""
    makers: set[bytes] = set()
    direct: list[Path] = []
    for path, text in hosts.items():
        if b"-D" not in text:
            continue
        if _COMPUTED.search(text):
            direct.append(path)
        for m in _DEFINE_BODY.finditer(text):
            if _COMPUTED.search(m.group(2)):
                makers.add(m.group(1))
    if not makers:
        return direct
    call = lazy(rb"\b(?:" + b"|".join(re.escape(k) for k in makers) + rb")\s*\(")
    return sorted(set(direct) | {p for p, t in hosts.items() if call.search(t)})


# A string literal that is a whole macro-style name (`"KERN"`, `'TILE'`): in a workspace whose
# host composes `-D` names at run time, the names it hands that composer (`get_program(ctx,
# "blur", "KERN", k, "CHANNELS", c)`, `{{"KERN", k}}`, `build(src, "TILE", 16)`).
_NAME_LITERAL = lazy(rb"""["']([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)["']""")


def name_literals(texts: Iterable[bytes]) -> frozenset[str]:
    """The macro-style names host texts write as whole string literals."""
    out: set[bytes] = set()
    for text in texts:
        for m in _NAME_LITERAL.finditer(text):
            before = text[m.start() - 1:m.start()]
            if not (before.isalnum() or before == b"_"):  # `R"(`, `u8"`, `L"`: no literal of a name
                out.add(m.group(1))
    return frozenset(n.decode() for n in out)


def kernels_named(hosts: dict[Path, bytes], chosen: list[Path], stems: Iterable[str]) -> set[str]:
    """The stems of OpenCL sources the chosen host files name (`scan_dim.cl`, `scan_dim_cl_src`)."""
    wanted = {s for s in stems if len(s) >= 3}
    if not wanted or not chosen:
        return set()
    found: set[str] = set()
    for p in chosen:
        for stem, _, _ in _kernel_refs(hosts[p]):
            if stem in wanted:
                found.add(stem)
    return found


# `code = ProgPow::getKern(seed, KERNEL_CL)`: a string bound to what a call returns (no literal or
# file name among its arguments on that line), then `code += ...` / `code.append(...)`.
_BOUND_TO_CALL = lazy(rb"\b([A-Za-z_]\w*)[ \t]*=(?!=)[ \t]*[A-Za-z_][\w:.]*[ \t]*\(([^\n\"']*)\)")
_APPEND = lazy(rb"\b([A-Za-z_]\w*)[ \t]*(?:\+=|\.append[ \t]*\()")
# what is appended is that string alone: `+= CLMiner_kernel`, `+= string(CLMiner_kernel))`
_WHOLE_REF = lazy(rb"[ \t]*(?:(?:std::)?(?:string|String|str)[ \t]*\([ \t]*)?([A-Za-z_]\w*)[ \t]*\)*[ \t]*\Z")


def generated_prefix_kernels(hosts: dict[Path, bytes], stems: Iterable[str]) -> set[str]:
    """The stems of sources a host appends to text it generates at run time (kawpowminer's
    `std::string code = ProgPow::getKern(seed, ...); code += string(CLMiner_kernel);`): the
    generated text defines names the source uses, which no file holds."""
    wanted = {s for s in stems if len(s) >= 3}
    found: set[str] = set()
    for text in hosts.values():
        if b"+=" not in text and b"append" not in text:
            continue
        appended: dict[bytes, list[tuple[int, set[str]]]] = {}  # variable -> (offset, stems appended)
        for a in _APPEND.finditer(text):
            end = min(x for x in (text.find(b";", a.end()), text.find(b"\n", a.end()), len(text)) if x >= 0)
            statement = text[a.end():end]
            named = {stem for stem, _, _ in _kernel_refs(statement) if stem in wanted}
            alone = _WHOLE_REF.match(statement)  # a string named for the source (a generated header's)
            if alone is not None and alone.group(1).decode() in wanted and \
                    re.search(rb"\b%s[ \t]*=(?!=)" % re.escape(alone.group(1)), text) is None:
                named.add(alone.group(1).decode())  # (a name the host assigns is its own variable)
            if named:
                appended.setdefault(a.group(1), []).append((a.start(), named))
        if not appended:
            continue
        for m in _BOUND_TO_CALL.finditer(text):
            if m.group(1) not in appended or any(True for _ in _suffix_refs(m.group(2))):
                continue  # (a file read, `load("a.cl")`, joins sources: no generated text)
            for at, named in appended[m.group(1)]:
                if at > m.start():
                    found.update(named)
    return found


# The suffixes `.cl`, `.clh`, `.ocl`, `.opencl` (or `_cl`...) are found by their `cl`, a literal
# the regex engine scans for fast, and what comes before it is checked apart (a pattern that
# starts with `[._]` is tried at every dot and underscore of a large host tree).
_SUFFIX_TAIL = lazy(rb"cl(h?)(?![A-Za-z0-9])")
_SUFFIX_HEADS = ((b"", True), (b"o", False), (b"open", False))  # before `cl`; whether `clh` may follow
_STEM_BEFORE = lazy(rb"[A-Za-z_][\w-]{0,199}\Z")


def _suffix_refs(text: bytes):  # noqa: ANN202 - yields (start, end) of each `[._](cl|ocl|opencl|clh)`
    for m in _SUFFIX_TAIL.finditer(text):
        at = m.start()
        for head, h_ok in _SUFFIX_HEADS:
            dot = at - len(head) - 1
            if dot >= 0 and text[dot] in b"._" and text[dot + 1:at] == head:
                if m.group(1) and not h_ok:
                    break  # `.oclh` is no suffix
                yield dot, m.end()
                break


def _kernel_refs(text: bytes):  # noqa: ANN202 - yields (stem, start, end)
    """Names of OpenCL sources in host text: `scan_dim.cl`, `scan_dim_cl_src` give `scan_dim`.
    Found by their suffix, the stem read backwards (linear in the text, whatever its words)."""
    for m_start, m_end in _suffix_refs(text):
        window = text[max(0, m_start - 200):m_start]
        before = _STEM_BEFORE.search(window)
        if before is None:
            continue
        stem = before.group(0)
        start = m_start - len(stem)
        if start > 0 and (text[start - 1:start].isalnum() or text[start - 1:start] == b"_"):
            continue  # longer than the window: not a file's name
        yield stem.decode(errors="replace"), start, m_end


# Hosts and auto-tuners that pass a name with `-D` (or prepend its `#define`) through a helper:
# CLTune's and CLBlast's `tuner.AddParameter(id, "WPTX", {1, 2})`, ethminer's
# `addDefinition(code, "ACCESSES", 64)`, `add_define("TILE", 16)`, Kernel Tuner's
# `tune_params["WPTX"] = [1, 2]`.
# (Each found by its bracket, the callee's or map's name read backwards: a pattern that starts
# with a word is tried at every word of a large host tree.)
_TUNER_ARGS = lazy(rb"\(\s*(?:[^,;()\"]{0,80},\s*)?\"([A-Za-z_]\w*)\"")
# (Rust's `ocl` crate defines a program's macros with `ProgramBuilder::cmplr_def("NAME", value)`)
_TUNER_CALLEE = lazy(rb"(?:add|set|define)\w*?(?:param\w*|definition|define|macro)|cmplr_def", re.I)
_TUNER_MAP = lazy(rb"(?:tune|tuning)_?params")
# A host that writes the `#define` lines itself from a map keyed by macro name (OpenMM's
# `defines["TILE_SIZE"] = ...`, `compilationDefines["APPLY(pos, c)"] = ...`, Python's
# `macros["SCALE"] = 2`), or substitutes words of the source from one (`replacements["SORT_KEY"]
# = ...` before the build): the map's name says so; a map of anything else (`config["TILE"]`,
# `results["LIMIT"]`) passes nothing to the compiler.
_MAP_KEY = lazy(rb"\[\s*[\"']([A-Za-z_]\w*)(\s*\([^\"'()\n]*\))?[\"']\s*\]\s*=(?!=)")
# The word starts the map's name or a part of it (`defines`, `m_defines`, `compilationDefines`,
# `kernelMacros`), not only somewhere in it (`undefined`).
_MACRO_MAP = lazy(rb"(?:\A|_)(?i:define|macro|replacement|substitution)|[a-z0-9](?:Define|Macro|Replacement|Substitution)")


_WORD_CHARS = b"_0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _word_before(text: bytes, at: int) -> bytes:
    """The identifier that ends just before `at` (blanks between allowed)."""
    before = text[max(0, at - 80):at].rstrip()
    return before[len(before.rstrip(_WORD_CHARS)):]


def _map_keys(text: bytes) -> list[bytes]:
    """Keys assigned in maps named for macros (any key, `NAME(a, b)` too) or for tuning
    parameters (a plain name)."""
    out = []
    for m in _MAP_KEY.finditer(text):
        word = _word_before(text, m.start())
        if _MACRO_MAP.search(word) or (m.group(2) is None and _TUNER_MAP.search(word)):
            out.append(m.group(1))
    return out


def _tuner_calls(text: bytes) -> list[bytes]:
    out = []
    for m in _TUNER_ARGS.finditer(text):
        word = _word_before(text, m.start())
        if word and not word[:1].isdigit() and _TUNER_CALLEE.fullmatch(word):
            out.append(m.group(1))
    return out


# `src.replace("TYPE", "float")`, C#'s `builder.Replace("GENERATED__CONSTANTS", defines)`,
# Java's `replaceAll("WIDTH", ...)`: a macro-style name the host replaces in a kernel's text.
_REPLACED = lazy(rb"""\.(?:replace|Replace|replaceAll|ReplaceAll)[ \t]*\([ \t]*[@$]?["']([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)["']""")


def replaced_words(text: bytes) -> list[str]:
    """The macro-style words a host replaces in a kernel's text (`.replace("FIELD", name)`)."""
    return [m.group(1).decode() for m in _REPLACED.finditer(text)] if b"eplace" in text else []


def macros_in(texts: list[bytes]) -> frozenset[str]:
    names: set[bytes] = set()
    makers: dict[bytes, int] = {}  # stringizing macro -> index of the parameter after `-D`
    for text in texts:
        if b"eplace" in text:
            names.update(m.group(1) for m in _REPLACED.finditer(text))  # text the host substitutes
        if b"aram" in text or b"efin" in text or b"acro" in text or b"cmplr_def" in text:
            names.update(_tuner_calls(text))
        if b"[" in text:
            names.update(_map_keys(text))
        if b"define" in text:
            from .string_defines import string_defines  # (hosts that write #define lines)

            names.update(string_defines(text))  # `"#define N " + std::to_string(n)` (string_defines.py)
        if b"-D" not in text:
            continue
        names.update(_options(text))
        for m in _STRINGIZING.finditer(text):
            after = _AFTER_D.search(m.group(3))
            if after is None:
                continue
            params = [p.strip() for p in m.group(2).split(b",")]
            if after.group(1) in params:
                makers[m.group(1)] = params.index(after.group(1))
    if makers:
        call = lazy(rb"\b(" + b"|".join(re.escape(k) for k in makers) + rb")\s*\(")
        for text in texts:
            for m in call.finditer(text):
                if b"define" in text[text.rfind(b"\n", 0, m.start()) + 1:m.start()]:
                    continue  # the maker's own `#define` line
                args = _arguments(text, m.end())
                i = makers[m.group(1)]
                if i < len(args) and re.fullmatch(rb"[A-Za-z_]\w*", args[i]):
                    names.add(args[i])
    return frozenset(n.decode() for n in names)


_MAX_GAP = 400  # bytes between two sources named in one statement
_MAX_SOURCES = 8  # more in one statement is a list of files, not a program


class HostProgram:
    """Sources one host statement joins into a program, in order, and where it does."""

    __slots__ = ("stems", "host", "line")
    stems: tuple[str, ...]
    host: Path
    line: int

    __match_args__ = ("stems", "host", "line")

    def __init__(self, stems: tuple[str, ...], host: Path, line: int) -> None:
        self.stems = stems
        self.host = host
        self.line = line

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(stems={self.stems!r}, host={self.host!r}, line={self.line!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.stems, self.host, self.line) == (other.stems, other.host, other.line)

    def __hash__(self) -> int:
        return hash((self.stems, self.host, self.line))


def host_programs(hosts: dict[Path, bytes], stems: Iterable[str]) -> list[HostProgram]:
    """Programs a host builds from several sources in one statement: `{{ops_cl_src,
    mean_dim_cl_src}}`, `[read("common.cl"), read("k.cl")]`, `src = a_cl + b_cl;`. Sources
    named within one statement (no `;` between them) are read in the order written."""
    wanted = {s for s in stems if len(s) >= 3}
    out: list[HostProgram] = []
    for path in sorted(hosts):
        if path.name in HOST_NAMES or path.name in PACKAGING_NAMES or path.suffix.lower() == ".cmake":
            continue  # a build or packaging file lists every source, not one program's
        if path.suffix.lower() in CLOJURE_SUFFIXES:
            continue  # a `let` binds each source on its line: read as forms (clojure_builds.py)
        text = hosts[path]
        group: list[tuple[str, int]] = []
        last_end = -1
        joined, stream = True, None  # only `<<`/`+` between the sources; the stream they go into
        refs = sorted((*_kernel_refs(text), *_symbol_refs(text, wanted)), key=lambda r: r[1])
        python = _python_lines(text) if path.suffix.lower() == ".py" and refs else None
        for stem, start, end in refs:
            if stem not in wanted or start < last_end:
                continue
            if python is not None and _in_ranges(python[0], start):
                continue  # a name in a `#` comment
            between = text[last_end:start] if last_end >= 0 else b""
            if group and not _continues(between, stream):
                if b";" in between or len(between) > _MAX_GAP or \
                        (python is not None and _in_ranges(python[1], last_end, start)) or \
                        _line_break(between) and path.suffix.lower() != ".py" and \
                        (_on_directive(text, last_end) or _on_directive(text, start)):
                    _close(group, path, text, out, joined)
                    group = []
                else:
                    joined = joined and _is_join(between)
            if not group:
                joined, stream = True, _stream_before(text, start)
            if not group or group[-1][0] != stem:
                group.append((stem, start))
            last_end = end
        _close(group, path, text, out, joined)
        out.extend(_bound_programs(path, text, wanted))
    return out


def _python_lines(text: bytes) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """A Python host's `#` comments, and the ends of its logical lines (newlines outside
    brackets, not continued by a backslash), as sorted ranges."""
    from cllint.analysis.source_kind import blank_comments_and_strings

    code = blank_comments_and_strings(text)  # (strings blanked; `#` then starts a comment)
    comments = [(m.start(), m.end()) for m in _PY_COMMENT.finditer(code)]
    code = _PY_COMMENT.sub(lambda m: b" " * (m.end() - m.start()), code)
    ends: list[tuple[int, int]] = []
    depth = 0
    for m in _PY_BRACKET.finditer(code):
        c = m.group()
        if c == b"\n":
            if depth == 0 and code[m.start() - 1:m.start()] != b"\\":
                ends.append((m.start(), m.start() + 1))
        elif c in b"([{":
            depth += 1
        else:
            depth = max(0, depth - 1)
    return comments, ends


_PY_COMMENT = lazy(rb"#[^\n]*")
_PY_BRACKET = lazy(rb"[()\[\]{}\n]")


def _in_ranges(ranges: list[tuple[int, int]], start: int, end: int | None = None) -> bool:
    """Whether a range of `ranges` holds `start` (or, given `end`, meets [start, end))."""
    i = bisect_right(ranges, (start, 1 << 62)) - 1
    if i >= 0 and ranges[i][0] <= start < ranges[i][1]:
        return True
    return end is not None and i + 1 < len(ranges) and ranges[i + 1][0] < end


# `String source0 = readFile("k/QuadFloat.cl");`, `char *a = load("a.cl");`, `a = open("a.cl").read()`:
# the name an assignment binds, the value after it (to the source's name) within one statement.
_BOUND_NAME = lazy(rb"([A-Za-z_]\w*)[ \t]*(?:\[[ \t]*\])?[ \t]*=(?!=)([^=;{}]*)\Z")
# A braced or bracketed list of two names or more (`new String[]{ s0, s1 }`, `{a, b}`,
# `[a, b]`), or names joined with `+` (`a + b`): read apart, each name checked.
_NAME_LIST = lazy(rb"[\[{][ \t\r\n]*([A-Za-z_]\w*(?:[ \t\r\n]*,[ \t\r\n]*[A-Za-z_]\w*)+)[ \t\r\n]*,?[ \t\r\n]*[\]}]")
_NAME_SUM = lazy(rb"(?<![\w.])([A-Za-z_]\w*(?:[ \t]*\+[ \t]*[A-Za-z_]\w*)+)(?![\w(\[.])")
_SPLIT = lazy(rb"[\s,+]+")


def _bound_programs(path: Path, text: bytes, wanted: set[str]) -> list[HostProgram]:
    """Programs joined from sources the host first reads into variables (JOCL's `new String[]{
    source0, source1 }`, C's `const char *srcs[] = {a, b};`, Python's `a + b`): a list or sum
    whose every item is a variable bound to one kernel file, in the order written. A variable
    bound to two files (reassigned) names none."""
    bound: dict[bytes, set[str]] = {}
    python = path.suffix.lower() == ".py"
    for stem, start, _ in _kernel_refs(text):
        if stem not in wanted:
            continue
        back = max(0, start - 300)
        m = _BOUND_NAME.search(text, back, start)
        if m is None:
            continue
        value = m.group(2)
        # one statement: in Python one line; elsewhere the value may start on the next line
        if (python and b"\n" in value) or value.count(b"(") <= value.count(b")") - 1:
            continue
        bound.setdefault(m.group(1), set()).add(stem)
    names = {n: next(iter(s)) for n, s in bound.items() if len(s) == 1}
    if len(names) < 2:
        return []
    out: list[HostProgram] = []
    for pattern in (_NAME_LIST, _NAME_SUM):
        for m in pattern.finditer(text):
            items = [w for w in _SPLIT.split(m.group(1)) if w]
            if len(items) >= 2 and all(w in names for w in items):
                stems = tuple(dict.fromkeys(names[w] for w in items))
                if len(stems) >= 2:
                    out.append(HostProgram(stems, path, text.count(b"\n", 0, m.start()) + 1))
    return out


def _line_break(between: bytes) -> bool:
    """Whether a line ends in `between` (a backslash-newline continues the line)."""
    return between.replace(b"\\\n", b"").find(b"\n") >= 0


def _line_start(text: bytes, at: int) -> int:
    start = at
    while True:
        start = text.rfind(b"\n", 0, start) + 1
        if start < 2 or text[start - 2:start] != b"\\\n":
            return start
        start -= 2  # the line continues the one before


_OPENS_EXPRESSION = (b"{", b"(", b",", b"+", b"=", b"<<", b"\"")  # a string literal: adjacent ones join


def _on_directive(text: bytes, at: int) -> bool:
    """Whether `at` is on a preprocessor line that is a statement of its own: a `#define P
    "a.cl"` (Bullet3 names each kernel file on one and builds them apart), or an `#include` of a
    generated source at file or block level (GEGL's `colors.cl.h`, xmrig's `cryptonight_cl.h`:
    a string each). An `#include` inside an expression is part of it: CLBlast's `{ #include
    "level1.opencl" #include "xaxpy.opencl" }` joins two raw strings into one program."""
    start = _line_start(text, at)
    line = text[start:at].lstrip(b" \t")
    if not line.startswith(b"#"):
        return False
    if not line[1:].lstrip(b" \t").startswith(b"include"):
        return True
    end = start  # the code line before: does it leave an expression open?
    while end > 0:
        begin = _line_start(text, end - 1)
        code = text[begin:end].split(b"//", 1)[0].strip()
        if code and not code.startswith((b"#", b"/*", b"*")):
            return not code.endswith(_OPENS_EXPRESSION)
        end = begin
    return True


def _close(group: list[tuple[str, int]], path: Path, text: bytes, out: list[HostProgram], joined: bool) -> None:
    stems = tuple(dict.fromkeys(s for s, _ in group))
    if 2 <= len(stems) and (joined or len(stems) <= _MAX_SOURCES):
        out.append(HostProgram(stems, path, text.count(b"\n", 0, group[0][1]) + 1))


# Strings a build generates per source and names for it: LuxCore's CMake step writes
# `std::string KernelSource_<stem> = "...";` for each kernel file, and the host joins
# `slg::ocl::KernelSource_light_types << ...` (found by the literal, the stem checked apart).
_SYMBOL = lazy(rb"(?:[Ss]ource|[Ss]rc)_([A-Za-z_]\w*)")
_SYMBOL_OWNER = lazy(rb"(?i)kernel|program|cl")  # what the string's name says it holds
# Between two sources joined into one string or stream: `<<` or `+`, blanks, comments,
# namespace qualifiers and a conversion's brackets (`std::string(a) + b`).
_JOIN_GAP = lazy(rb"(?:\s+|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/|<<|\+|\(|\)|[A-Za-z_]\w*[ \t]*::)*")
_NEXT_STATEMENT = lazy(rb"\s*;(?:\s+|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/)*([A-Za-z_]\w*)[ \t]*<<")
_STREAM = lazy(rb"([A-Za-z_]\w*)[ \t]*<<(?:\s+|//[^\n]*|[A-Za-z_]\w*[ \t]*::)*\Z")


def _symbol_refs(text: bytes, wanted: set[str]):  # noqa: ANN202 - yields (stem, start, end)
    if b"ource_" not in text and b"rc_" not in text:
        return
    for m in _SYMBOL.finditer(text):
        stem = m.group(1).decode(errors="replace")
        if stem in wanted:
            start = m.start()
            while start > 0 and text[start - 1] in _WORD_CHARS:
                start -= 1
            if _SYMBOL_OWNER.search(text, start, m.start() + 1):  # not a variable's `src_min`
                yield stem, start, m.end()


def _is_join(between: bytes) -> bool:
    return (b"<<" in between or b"+" in between) and _JOIN_GAP.fullmatch(between) is not None


def _stream_before(text: bytes, at: int) -> bytes | None:
    """The stream a source is written into (`ss << a`): its name, None if none."""
    m = _STREAM.search(text[max(0, at - 300):at])
    return m.group(1) if m else None


def _continues(between: bytes, stream: bytes | None) -> bool:
    """A next statement writing on into the same stream (`ss << a << b; ss << c;`)."""
    if stream is None:
        return False
    m = _NEXT_STATEMENT.match(between)
    return m is not None and m.group(1) == stream and _JOIN_GAP.fullmatch(between, m.end()) is not None


# Each starts with a literal (fast to scan for), the word boundary before it checked apart.
_EXTENSION_NAME = lazy(rb"cl_(?:khr|ext|intel|amd|nv|arm|qcom|img|apple|altera)_\w+")
_FEATURE_NAME = lazy(rb"__opencl_c_\w+")


def _named_extensions(text: bytes) -> list[bytes]:
    out = []
    for pattern in (_EXTENSION_NAME, _FEATURE_NAME):
        for m in pattern.finditer(text):
            if m.start() == 0 or text[m.start() - 1] not in _WORD_CHARS:
                out.append(m.group())
    return out


# A host file that composes extension names from a `cl_` prefix (oneDNN's `CASE(intel_subgroups)`
# with `STRINGIFY(CONCAT2(cl_, x))`, `"cl_" + name`) names each extension by the rest alone:
# there a word that is a known extension once prefixed is one the host checks. (Found by the
# `cl_`, what comes before checked apart: a host tree has many brackets and quotes.)
_CL_PREFIX = lazy(rb"cl_(?:[ \t]*,|[\"'])")
_VENDOR_WORD = lazy(rb"(?:khr|ext|intel|amd|nv|arm|qcom|img|apple|altera)_\w+")


def _composes_names(text: bytes) -> bool:
    for m in _CL_PREFIX.finditer(text):
        before = text[max(0, m.start() - 8):m.start()]
        if (before.rstrip(b" \t").endswith(b"(") and m.group().endswith(b",")) or \
                (before.endswith((b'"', b"'")) and m.group()[-1:] == before[-1:]):
            return True
    return False


def _prefixed_extensions(text: bytes) -> set[str]:
    from cllint.analysis.features import EXTENSIONS

    out: set[str] = set()
    for m in _VENDOR_WORD.finditer(text):
        if m.start() == 0 or text[m.start() - 1] not in _WORD_CHARS:
            name = "cl_" + m.group().decode()
            if name in EXTENSIONS:
                out.add(name)
    return out


# Device queries that answer for a feature: a host that asks builds what needs it only where
# the answer is yes.
_QUERIES = {
    b"CL_DEVICE_IMAGE_SUPPORT": ("__opencl_c_images",),
    b"CL_DEVICE_DOUBLE_FP_CONFIG": ("cl_khr_fp64", "__opencl_c_fp64"),
    b"CL_DEVICE_HALF_FP_CONFIG": ("cl_khr_fp16", "__opencl_c_fp16"),
}
# Extension and feature names that say the same (the spec's feature macros of 3.0).
_SAME = {"cl_khr_fp64": "__opencl_c_fp64", "cl_khr_fp16": "__opencl_c_fp16",
         "cl_khr_subgroups": "__opencl_c_subgroups", "cl_khr_3d_image_writes": "__opencl_c_3d_image_writes"}


# Creating an image object: a program whose host does this cannot run on a device without
# images (the host's own call fails first), so the kernels' image types are its requirement.
_CREATES_IMAGE = lazy(
    rb"(?<![\w])(?:clCreateImage(?:2D|3D|WithProperties)?[ \t]*\(|cl::Image(?:1D|1DBuffer|1DArray|2D|2DArray|3D|GL)?\b[ \t]*[\w(<{]"
    rb"|cl\.(?:Image|image_from_array)[ \t]*\()")
_IMAGE_WORDS = (b"clCreateImage", b"cl::Image", b"cl.Image", b"cl.image_from_array")
_PYTHON_COMMENT = lazy(rb"#[^\n]*")


def _creates_images(path: Path, text: bytes) -> bool:
    if not any(w in text for w in _IMAGE_WORDS) or _CREATES_IMAGE.search(text) is None:
        return False
    from cllint.analysis.source_kind import blank_comments_and_strings

    code = blank_comments_and_strings(text)
    if path.suffix == ".py":
        code = _PYTHON_COMMENT.sub(b" ", code)
    return _CREATES_IMAGE.search(code) is not None


def checked_extensions(hosts: dict[Path, bytes]) -> frozenset[str]:
    """Extensions and features the host code names (`"cl_khr_fp16" in dev.extensions`,
    `CL_DEVICE_DOUBLE_FP_CONFIG`): the host decides whether to build what needs them, so a
    kernel's unguarded use of one is the host's choice, not a portability problem (issue 29).
    A host that creates images requires them: that is images' "check"."""
    names: set[str] = set()
    for path, text in hosts.items():
        if path.name in HOST_NAMES or path.suffix.lower() == ".cmake":
            continue  # a build file's option names say nothing about a device check
        if b"cl_" in text:
            names.update(n.decode() for n in _named_extensions(text))
        for query, features in _QUERIES.items():
            if query in text:
                names.update(features)
        if _creates_images(path, text):
            names.add("__opencl_c_images")
        if b"cl_" in text and _composes_names(text):
            names.update(_prefixed_extensions(text))
    for a, b in _SAME.items():
        if a in names or b in names:
            names.update((a, b))
    return frozenset(names)
