"""The syntax layer: parsing never fails; it returns a tree plus a list of errors."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node, Tree

from cllint.grammar import parse

__all__ = ["SyntaxErrorInfo", "descend", "macro_named", "parse", "spelled_name", "syntax_errors", "walk"]


class SyntaxErrorInfo:
    __slots__ = ("start", "end", "message", "opened_at")
    start: int
    end: int
    message: str
    opened_at: int | None  # a missing closing bracket: where its opening one is

    __match_args__ = ("start", "end", "message", "opened_at")

    def __init__(self, start: int, end: int, message: str, opened_at: int | None = None) -> None:
        self.start = start
        self.end = end
        self.message = message
        self.opened_at = opened_at

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"start={self.start!r}, " f"end={self.end!r}, "
                f"message={self.message!r}, " f"opened_at={self.opened_at!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.start, self.end, self.message, self.opened_at)
        theirs = (other.start, other.end, other.message, other.opened_at)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.message, self.opened_at))


def descend(top: Node, node: Node) -> list[Node] | None:
    """The nodes from `top` down to `node`, both included; None if `node` is not found under
    `top`. Going down costs the depth: `.parent` is itself a walk down from the root, so
    climbing from `node` costs the depth squared (minutes for code nested a thousand deep)."""
    path = [top]
    at = top
    while at.id != node.id:
        nxt = at.child_with_descendant(node)
        if nxt is None:
            return None
        path.append(nxt)
        at = nxt
    return path


def macro_named(fdecl: Node | None) -> Node | None:
    """For `NAME(x)(params)`, a function declarator whose declarator is itself a function
    declarator (`kernel void NAME(float)(global float *a)`), the inner one: a macro makes the
    function's name (`#define NAME(x) k_##x`, or one the includer defines). C has no
    function returning a function, so the shape means nothing else; `(*f(int))(float)`
    keeps its parentheses in between. None for any other node."""
    if fdecl is None or fdecl.type != "function_declarator":
        return None
    inner = fdecl.child_by_field_name("declarator")
    return inner if inner is not None and inner.type == "function_declarator" else None


def spelled_name(node: Node) -> str:
    """A declarator's name as written, whitespace collapsed: 'k', or 'NAME(float)' for a
    name a macro makes; the name a function made so goes by in the model."""
    text = (node.text or b"").decode("utf-8", "replace")
    return " ".join(text.split()) if node.type != "identifier" else text


def walk(node: Node) -> Iterator[Node]:
    """Pre-order traversal without recursion (trees of real files are deep)."""
    cursor = node.walk()
    visited_children = False
    while True:
        if not visited_children:
            yield cursor.node  # type: ignore[misc]
            if cursor.goto_first_child():
                continue
        if cursor.goto_next_sibling():
            visited_children = False
        elif cursor.goto_parent():
            visited_children = True
            if cursor.node == node:
                return
        else:
            return


def _first_line(source: bytes, start: int, end: int) -> int:
    newline = source.find(b"\n", start, end)
    return end if newline < 0 else max(newline, start + 1)


_OPENERS = {"}": "{", ")": "(", "]": "["}


def _opener(missing: Node, kind: str) -> int | None:
    """The start of the bracket a missing closing one would close: its parent's first
    child of the opening kind."""
    want = _OPENERS.get(kind)
    parent = missing.parent
    if want is None or parent is None:
        return None
    for child in parent.children:
        if child.type == want:
            return child.start_byte
    return None


def syntax_errors(tree: Tree, source: bytes, limit: int = 200) -> list[SyntaxErrorInfo]:
    """Outermost ERROR nodes and MISSING tokens, in source order."""
    out: list[SyntaxErrorInfo] = []
    stack = [tree.root_node]
    while stack and len(out) < limit:
        node = stack.pop()
        if node.is_missing:
            kind = node.type
            if kind.startswith("#"):
                continue  # an unclosed conditional: CL003 reports it from the directives
            out.append(SyntaxErrorInfo(node.start_byte, node.end_byte, f"expected '{kind}'", _opener(node, kind)))
            continue
        if node.is_error:
            start = node.start_byte
            # The first token inside the error is what the parser could not place.
            first = node
            while first.child_count:
                first = first.children[0]
            token = source[first.start_byte : first.end_byte].decode("utf-8", "replace")
            token = token.splitlines()[0][:40] if token.strip() else ""
            end = _first_line(source, start, node.end_byte)
            message = f"unexpected '{token}'" if token else "unexpected input"
            out.append(SyntaxErrorInfo(start, end, message))
            continue
        if node.has_error:
            stack.extend(reversed(node.children))
    out.sort(key=lambda e: e.start)
    return out
