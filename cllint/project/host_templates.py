"""Templates whose host is elsewhere (issue 29, items 2c and 3): a source that cannot compile
without macros its host prepends, and that no program of the workspace builds.

A kernel library whose host lives in another repository (a Java or Python package that
prepends `#define IMAGE_src_TYPE __read_only image2d_t` and the like for each parameter) ships
files in which a parameter's type is a name nothing defines: no compiler accepts the file as
it is, and no build in the workspace says what the name stands for. That is the evidence: a
word written where only a type can stand (before a parameter's name in a function head at file
scope) which no source or header of the workspace, no host, no included header and no compiler
defines. The file is then a *template*: each word it uses that nothing declares and that is
spelled like a macro (capitals, digits and underscores, or such parts around one of the file's
own parameter or variable names, `READ_src_IMAGE` for a parameter `src`) is the host's, as
are the evidence words themselves. Those names are host macros (values unknown, never
reported), and the file gets one information note naming them.

A file its workspace builds (a host names it, a build passes its options, another source
includes it, a lit `RUN:` line compiles it) is no template: its program says what is defined,
and a name missing there is a real error. So is a file that includes a header the workspace
does not index (the type may be declared there).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterator
from functools import cache

from cllint.analysis.lazy_re import lazy

# Comments and string/char literals, blanked with spaces of the same length (offsets kept).
_STRIP = lazy(r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'", re.S)
_DIRECTIVE = lazy(r"^[ \t]*#(?:[^\n\\]|\\.)*", re.M | re.S)
# A function head: a name, its parameter list (no nested parentheses or braces), then its body.
_HEAD = lazy(r"(?<!\w)([A-Za-z_]\w*+)\s*+\(([^(){};]*+)\)\s*+\{")
_WORD = lazy(r"[A-Za-z_]\w*+")
_BRACE = lazy(r"[{}]")
_INCLUDE = lazy(rb"^[ \t]*#[ \t]*include[ \t]*[<\"]([^>\"\n]+)[>\"]", re.M)
_COMPUTED_INCLUDE = lazy(rb"^[ \t]*#[ \t]*include[ \t]*[^<\"\s]", re.M)
_CONDITIONAL = lazy(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|endif|define)\b[ \t]*(\w*)", re.M)
_CAPS = lazy(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")
_PART = lazy(r"^[A-Z0-9]+$")
_MAX_SHOWN = 8

# Words of a parameter that are not its type's name or its own: qualifiers, C's and OpenCL C's
# type keywords (a parameter written with them alone is complete).
_QUALIFIERS = frozenset("""
const volatile restrict static inline extern register signed unsigned short long char int float double void
bool half size_t ptrdiff_t uchar ushort uint ulong kernel global local constant private generic
read_only write_only read_write struct union enum pipe
""".split())
_CONTROL = frozenset({"if", "for", "while", "switch", "return", "sizeof", "do", "else"})


class Template:
    """A template file: the names its host supplies, and CL007's note (message, span)."""

    __slots__ = ("names", "note")

    def __init__(self, names: tuple[str, ...], note: tuple[str, int, int]) -> None:
        self.names = names
        self.note = note

    def __repr__(self) -> str:
        return f"Template(names={self.names!r}, note={self.note!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.names, self.note) == (other.names, other.note)

    def __hash__(self) -> int:
        return hash((self.names, self.note))


def _code(data: bytes) -> str:
    """The file's code, comments, strings and directive lines blanked, offsets kept (Latin-1
    maps each byte to one character)."""
    text = _STRIP.sub(_spaces, data.decode("latin-1"))
    return _DIRECTIVE.sub(_spaces, text)


def _spaces(m: re.Match[str]) -> str:
    return " " * (m.end() - m.start())


def _heads(code: str) -> Iterator[re.Match[str]]:
    """Function heads in the text outside braces only (bodies are most of a file and hold
    none at file scope)."""
    depth = 0
    start = 0
    for m in _BRACE.finditer(code):
        if m.group(0) == "{":
            if depth == 0:
                yield from _HEAD.finditer(code, start, m.end())
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                start = m.end()


def _conditional(text: str) -> list[tuple[int, int]]:
    """The spans of `#if` groups (an include guard's aside): code a build may leave out (C++
    under `#ifdef __cplusplus`), which says nothing of what every build needs."""
    spans: list[tuple[int, int]] = []
    stack: list[tuple[int, str, bool]] = []  # (start, `#ifndef` name, a guard)
    for m in _CONDITIONAL.finditer(text):
        kind, name = m.group(1), m.group(2)
        if kind in ("if", "ifdef", "ifndef"):
            stack.append((m.start(), name if kind == "ifndef" else "", False))
        elif kind == "define" and stack and stack[-1][1] == name and not stack[-1][2]:
            stack[-1] = (stack[-1][0], "", True)  # `#ifndef X` / `#define X`: an include guard
        elif kind == "endif" and stack:
            start, _, guard = stack.pop()
            if not guard:
                spans.append((start, m.end()))
    spans.extend((start, len(text)) for start, _, guard in stack if not guard)
    return spans


def type_words(data: bytes) -> list[tuple[str, int]]:
    """Words written as a parameter's type in the file-scope function heads outside `#if`
    groups, with their offsets: in a parameter of exactly two words (qualifiers and type
    keywords aside), the first, with no `*` before it."""
    code = _code(data)
    groups = _conditional(data.decode("latin-1")) if b"#" in data else []
    out: list[tuple[str, int]] = []
    for m in _heads(code):
        if m.group(1) in _CONTROL or any(a <= m.start() < b for a, b in groups):
            continue
        start = m.start(2)
        for param in m.group(2).split(","):
            at, start = start, start + len(param) + 1
            if any(w in ("struct", "union", "enum") for w in _WORD.findall(param)):
                continue  # a tag: an incomplete type is legal
            words = [(w.group(0), w.start()) for w in _WORD.finditer(param)
                     if w.group(0) not in _QUALIFIERS and not w.group(0).startswith("__")]
            # exactly a type and a name (`T x`, `const __global T *x`): a third word may be a
            # macro standing for qualifiers or attributes, and then which word is the type is
            # anyone's guess
            if len(words) == 2 and "*" not in param[:words[0][1]]:
                out.append((words[0][0], at + words[0][1]))
    return out


def _host_spelled(name: str, declared: Collection[str]) -> bool:
    """Spelled like a macro: capitals, digits and underscores, or capital parts around one of
    the file's own parameter or variable names (`READ_src_IMAGE`, `IMAGE_label_map_TYPE`)."""
    if _CAPS.match(name):
        return True
    parts = name.split("_")
    if len(parts) < 3 or not _PART.match(parts[0]) or not parts[0][0].isalpha() or not _PART.match(parts[-1]):
        return False
    lo, hi = 0, len(parts)
    while lo < hi and _PART.match(parts[lo]):
        lo += 1
    while hi > lo and _PART.match(parts[hi - 1]):
        hi -= 1
    return lo < hi and "_".join(parts[lo:hi]) in declared


def host_template(data: bytes, uses: Collection[str], declared: Collection[str],
                  defined: Callable[[str], bool], workspace_files: Collection[str]) -> Template | None:
    """The file as a template (None: it is not one). `uses`: its words; `declared`: its own
    parameters and variables; `defined(name)`: something in the workspace or the compiler
    defines the name; `workspace_files`: the base names of the files whose names the
    workspace index knows (`defined` read them)."""
    if _COMPUTED_INCLUDE.search(data) or any(m.group(1).rsplit(b"/", 1)[-1].decode("latin-1") not in workspace_files
                                             for m in _INCLUDE.finditer(data)):
        return None  # a header from elsewhere (or one a macro names) may declare the types
    evidence = [(w, o) for w, o in type_words(data) if not defined(w) and not _typo(w, data)]
    if not evidence:
        return None
    first = evidence[0]
    names = {w for w, _ in evidence}
    names.update(n for n in uses if n not in declared and not defined(n) and _host_spelled(n, declared))
    shown = sorted(names)
    listed = ", ".join(f"'{n}'" for n in shown[:_MAX_SHOWN])
    if len(shown) > _MAX_SHOWN:
        listed += f" and {len(shown) - _MAX_SHOWN} more"
    count = f"{len(shown)} name{'s' if len(shown) != 1 else ''}"
    message = (f"template completed by its host: '{first[0]}' is used as a type but nothing in the workspace "
               f"defines it; {count} taken as the host's macros ({listed}): pass them with '-D' or declare "
               f"the file's [[program]] in the configuration")
    return Template(tuple(shown), (message, first[1], first[1] + len(first[0])))


def _typo(word: str, data: bytes) -> bool:
    """A misspelt built-in type written once (`flaot`, `unit`): the file's own error, which
    CL025 reports with its fix, not a type its host supplies (a host's type stands at each use
    of it, `IMAGE_src_TYPE` or a `floatX` a whole kernel is written in)."""
    if len(re.findall(rb"(?<!\w)" + re.escape(word.encode()) + rb"(?!\w)", data)) > 1:
        return False
    from cllint.analysis.semantic.suggest import closest

    return closest(word, _builtin_types()) is not None


@cache
def _builtin_types() -> frozenset[str]:
    from cllint.analysis.catalogue import catalogue

    return frozenset(catalogue().types) | (_QUALIFIERS - {"const", "volatile", "restrict", "static", "inline",
                                                          "extern", "register", "kernel", "global", "local",
                                                          "constant", "private", "generic", "read_only",
                                                          "write_only", "read_write", "struct", "union", "enum"})


@cache
def compiler_names() -> frozenset[str]:
    """Names the compiler provides: built-in functions, types and constants, keywords."""
    from cllint.analysis.catalogue import catalogue

    c = catalogue()
    return frozenset(c.functions) | frozenset(c.types) | frozenset(c.constants) | _QUALIFIERS | _CONTROL | \
        frozenset({"true", "false", "NULL", "typedef", "case", "default", "break", "continue", "goto"})
