"""Object-like macros that stand for an operator (issue 29: macro handling on valid code).

OpenCV's arithmetic kernels write `uchar4 tmp = src1 OP_BINARY src2;` and are built with
`-D OP_BINARY=&`; a file's own `#define ACC +=` reads the same. The parser sees two operands
side by side, the compiler an operator. The syntax check reads the lines of its errors again
with each such macro replaced by its expansion, padded with spaces to the name's length so that
every offset stays where it was.
"""

from __future__ import annotations

from typing import Any

from cllint.analysis.lazy_re import lazy

_WORD = lazy(rb"[A-Za-z_]\w*")
# An expansion of operator characters only (`&`, `<=`, `+=`, `<<`), no word, no bracket.
_OPERATOR = lazy(r"[ \t]*[-+*/%&|^<>=!~?:]{1,3}[ \t]*")


def operator_macro_text(source: bytes, view: Any, error_starts: list[int]) -> bytes | None:
    """`source` with each use, on the line of an error, of a macro whose expansion is an
    operator replaced by that expansion (same length); None when there is none."""
    if view is None or not error_starts:
        return None
    env = getattr(getattr(view, "env", None), "macros", {})
    out = bytearray(source)
    changed = False
    for line_start, line_end in _lines(source, error_starts):
        for m in _WORD.finditer(source, line_start, line_end):
            body = _operator_body(view, env, m.group().decode(), m.start())
            if body is not None and len(body) <= m.end() - m.start():
                out[m.start():m.end()] = body.ljust(m.end() - m.start())
                changed = True
    return bytes(out) if changed else None


def _operator_body(view: Any, env: dict[str, str], name: str, at: int) -> bytes | None:
    macro = view.macro_at(name, at)
    if macro is not None:
        body = macro.body if macro.params is None else None
    else:
        body = env.get(name)
    if body is None or _OPERATOR.fullmatch(body) is None:
        return None
    return body.strip().encode()


def _lines(source: bytes, starts: list[int]) -> list[tuple[int, int]]:
    seen: dict[int, int] = {}
    for at in starts:
        begin = source.rfind(b"\n", 0, at) + 1
        end = source.find(b"\n", at)
        seen[begin] = len(source) if end < 0 else end
    return sorted(seen.items())

