"""A word alone at file scope where the host puts code (issue 29, items 2 and 3).

xrt's `OE.cl` holds lines `MY_LOCAL_Z`, `MY_XYZPARAM` that its Python host replaces with the
functions of the surface being traced (`src.replace('MY_LOCAL_Z', self.cl_local_z)`), and its
kernels call those functions. Such a line may declare anything, as an include the linter cannot
read may, so names the file uses and declares nowhere are not reported as undeclared there.

A placeholder is a macro-style word (capitals, digits, underscores; three characters or more)
alone on its line, outside every brace and directive, after a complete declaration (the file's
start, a `}`, a `;` or a directive line above it) and before a blank line, a directive or the
file's end: a word right above a declaration or a body is that declaration's specifier or
attribute macro (`INLINE`, `KERNEL_ATTR`), not a placeholder. A word
the file, its headers or its program define is no placeholder: its expansion is known.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Container

from cllint.analysis.lazy_re import lazy
from cllint.analysis.source_kind import blank_comments_and_strings

_ALONE = lazy(rb"^[ \t]*([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)[ \t]*\r?$", re.M)
_BEFORE_OK = (b"", b"}", b";")  # the code line above ends a declaration (b"": the file's start)
_NEXT_LINE = lazy(rb"\n[ \t]*(?:\r?\n|#|\Z)")  # blank, a directive, or the file's end


def placeholder(source: bytes, defined_names: Callable[[], Container[str]]) -> str | None:
    """The first placeholder word of `source` (see the module's doc), or None. `defined_names`
    is asked only when a candidate line is found (most files have none)."""
    if not _ALONE.search(source):
        return None
    defined = defined_names()
    code = blank_comments_and_strings(source)
    depth, seen = 0, 0  # braces open before `seen`, counted once over the file
    for m in _ALONE.finditer(code):
        depth += code.count(b"{", seen, m.start()) - code.count(b"}", seen, m.start())
        seen = m.start()
        name = m.group(1).decode()
        if depth != 0 or len(name) < 3 or name in defined:
            continue
        above = _line_above(code, m.start()).strip()
        if above[-1:] not in _BEFORE_OK and not (above.startswith(b"#") and not above.endswith(b"\\")):
            continue
        if not _ends_there(code, m.end()):
            continue
        return name
    return None


def _ends_there(code: bytes, end: int) -> bool:
    """Nothing continues the word: the line below is blank, a directive or the file's end (a
    word right above a declaration is that declaration's specifier macro, `INLINE`, `KERNEL_ATTR`)."""
    return end >= len(code) or _NEXT_LINE.match(code, end) is not None or code[end:].strip() == b""


def _line_above(code: bytes, at: int) -> bytes:
    """The last non-blank line before `at` (b"" at the file's start)."""
    end = at
    while end > 0:
        start = code.rfind(b"\n", 0, end - 1) + 1
        line = code[start:end]
        if line.strip():
            return line
        end = start
    return b""
