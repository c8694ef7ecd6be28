"""Double literals that reach the code through macros (`#define ZERO 0.0`, `#define ONE(x) (x) * 1.0`).

Clang reports a double precision constant where the macro is used, so a use of such a macro
is a literal there (CL308 on a target without fp64). Which definition holds is asked at each
use (`#define ZERO 0.0` in one arm, `0.0f` in the other); macros inside the body are followed.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Tree

from ..model.walk import nodes_of_kinds
from ..preprocessor.expr import tokenize
from ..preprocessor.view import PreprocessorView
from .macro_types import _in_directive
from cllint.analysis.lazy_re import lazy

_KINDS = frozenset({"identifier", "type_identifier"})
_MAX_DEPTH = 16


class MacroLiteral:
    __slots__ = ("start", "end", "macro", "literal")
    start: int  # the macro name where the code uses it
    end: int
    macro: str
    literal: str  # the first double literal its expansion holds

    __match_args__ = ("start", "end", "macro", "literal")

    def __init__(self, start: int, end: int, macro: str, literal: str) -> None:
        self.start = start
        self.end = end
        self.macro = macro
        self.literal = literal

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"start={self.start!r}, " f"end={self.end!r}, "
                f"macro={self.macro!r}, " f"literal={self.literal!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.start, self.end, self.macro, self.literal)
        theirs = (other.start, other.end, other.macro, other.literal)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.macro, self.literal))


def macro_literals(tree: Tree, source: bytes, view: PreprocessorView | None, is_double: Callable[[str], bool],
                   focus: list[tuple[int, int]] | None = None) -> list[MacroLiteral]:
    """Each use in code of a macro whose expansion holds a literal `is_double` accepts."""
    if view is None:
        return []
    candidates = _candidates(view, is_double)
    if not candidates:
        return []
    wanted = {n.encode() for n in candidates}
    out = []
    for node in nodes_of_kinds(tree.root_node, _KINDS, ordered=False, ranges=focus):
        if source[node.start_byte:node.end_byte] not in wanted or _in_directive(source, node.start_byte):
            continue
        name = source[node.start_byte:node.end_byte].decode()
        found = _literal_of(view, name, node.start_byte, is_double, frozenset(), 0)
        if found is not None:
            out.append(MacroLiteral(node.start_byte, node.end_byte, name, found))
    out.sort(key=lambda m: m.start)
    return out


_WORD = lazy(r"[A-Za-z_]\w*")


def _candidates(view: PreprocessorView, is_double: Callable[[str], bool]) -> set[str]:
    """Names some definition of which may expand to a double literal (a superset: each use
    is checked against the definition in effect there)."""
    bodies: dict[str, list[str]] = {}
    for macro in view.macro_definitions():
        bodies.setdefault(macro.name, []).append(macro.body)
    found = {name for name, texts in bodies.items()
             if any(t.kind == "num" and is_double(t.text) for body in texts for t in tokenize(body))}
    changed = bool(found)
    while changed:  # macros whose bodies name such a macro
        changed = False
        for name, texts in bodies.items():
            if name not in found and any(w in found for body in texts for w in _WORD.findall(body)):
                found.add(name)
                changed = True
    return found


def _literal_of(view: PreprocessorView, name: str, offset: int, is_double: Callable[[str], bool],
                hide: frozenset[str], depth: int) -> str | None:
    macro = view.macro_at(name, offset)
    if macro is None or depth > _MAX_DEPTH:
        return None
    params = set(macro.params or ())
    for tok in tokenize(macro.body):
        if tok.kind == "num" and is_double(tok.text):
            return tok.text
        if tok.kind == "id" and tok.text not in params and tok.text not in hide and tok.text != name:
            inner = _literal_of(view, tok.text, offset, is_double, hide | {name}, depth + 1)
            if inner is not None:
                return inner
    return None
