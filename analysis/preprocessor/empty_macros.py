"""Object-like macros that expand to nothing, read as the compiler reads them: as nothing.

Sources shared with another language's compiler leave slots that only it fills: `f MMC_TARGS
(args)` is a call with template arguments under CUDA and a plain call in OpenCL C, where
`#define MMC_TARGS` expands to nothing. The parser reads the source as written and sees two
names side by side; the compiler sees `f (args)`. Such a name is blanked where the parser
found an error (CL001), and a function name followed by it and `(` is a call, not a value
(CL401). A macro's emptiness is taken at the point of use, through chains of macros
(`#define A B`, `#define B`); one whose body is not empty (`<1>`) keeps its error.
"""

from __future__ import annotations

from typing import Any

from cllint.analysis.lazy_re import lazy

__all__ = ["called_through_empty_macros", "empty_macro_ranges", "has_empty_macros"]

_WORD = lazy(rb"[A-Za-z_]\w*")
_MAX_SPACERS = 4  # empty macros side by side before a call's `(`


def has_empty_macros(view: Any) -> bool:
    """Whether the program defines an object-like macro with an empty body anywhere (else
    nothing here can apply, and no line need be scanned)."""
    definitions = getattr(view, "macro_definitions", None)
    return definitions is not None and any(m.params is None and not m.body.strip() for m in definitions())


def _is_empty(view: Any, name: bytes, offset: int) -> bool:
    expand = getattr(view, "expand_type_macro", None)
    return expand is not None and expand(name.decode(), offset) == ""


def empty_macro_ranges(text: bytes, view: Any, errors: list[int]) -> list[tuple[int, int]]:
    """The names of macros that expand to nothing on each line with an error and the line
    before it (a call's arguments may continue below the name)."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for at in errors:
        line = text.rfind(b"\n", 0, at) + 1
        start = text.rfind(b"\n", 0, max(line - 1, 0)) + 1 if line else 0
        end = text.find(b"\n", at)
        end = len(text) if end < 0 else end
        for m in _WORD.finditer(text, start, end):
            if m.start() not in seen and _is_empty(view, m.group(), m.start()):
                seen.add(m.start())
                out.append((m.start(), m.end()))
    return out


def called_through_empty_macros(source: bytes, view: Any, end: int) -> bool:
    """Whether the name ending at `end` is followed by macros that expand to nothing and then
    by `(`: the compiler reads a call (`f TARGS (x)`)."""
    if view is None:
        return False
    at = end
    for _ in range(_MAX_SPACERS):
        while at < len(source) and source[at] in b" \t\r\n":
            at += 1
        m = _WORD.match(source, at)
        if m is None or not _is_empty(view, m.group(), m.start()):
            return False
        at = m.end()
        while at < len(source) and source[at] in b" \t\r\n":
            at += 1
        if source[at:at + 1] == b"(":
            return True
    return False
