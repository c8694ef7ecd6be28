"""Macros that stand for index arithmetic, read as the expressions they expand to.

`#define tid get_local_id(0)`, `#define GID (get_group_id(0) * get_local_size(0) + LID)` and
`#define PARTNER(i) ((i) ^ 1)` are parsed once each (a function-like macro once per argument
text) and evaluated like code written in the kernel: the race check sees `l[tid + 1]` as
`l[get_local_id(0) + 1]`. The expansion is a tree of its own, so its identifiers are read by
name (`ByName`): a variable of the function with that name, if it has exactly one, else
another macro, else unknown. Nothing here is kept between files: one `Expander` per kernel.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from cllint.analysis.uniformity.names import Names, VarInfo
from cllint.analysis.lazy_re import lazy

MAX_DEPTH = 8  # macros expanded one inside another
MAX_TEXT = 400  # an expansion longer than this is not read
_IDENT = lazy(r"[A-Za-z_]\w*")


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


class ByName:
    """A `Names` for a tree the function's own name table does not cover (an expansion):
    identifiers resolve by name to the function's variable of that name, if unique."""

    def __init__(self, names: Names) -> None:
        self.base = names
        self.fields = names.fields
        self._by_name: dict[str, VarInfo | None] = {}
        for v in names.variables:
            self._by_name[v.name] = None if v.name in self._by_name else v

    def var(self, node: Node) -> VarInfo | None:
        if node.type != "identifier":
            return None
        return self._by_name.get(_text(node))

    def field_path(self, node: Node) -> tuple[VarInfo, str] | None:
        return None  # fields of private structs are keyed by the function's own tree


class _Given:
    """An object-like macro the build defines (`-DWG=16`)."""

    params = None
    variadic = False

    def __init__(self, body: str) -> None:
        self.body = body


class _Defined:
    """Names a `-D` may give: anything but the compiler's and the target's own (`__x__`)."""

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and not name.startswith("__")


_DEFINED = _Defined()


class Expander:
    """Parses macro bodies (and function-like macros' expansions) into expression trees."""

    def __init__(self, view: Any, parse: Any) -> None:
        self.view, self.parse = view, parse
        self._trees: dict[str, Node | None] = {}
        self._kept: list[Any] = []  # the parsed expansions' trees, alive as long as their nodes

    def macro(self, name: str, at: int) -> Any:
        """The definition of `name` at `at`: the source's `#define`, else a `-D` option's."""
        if self.view is None:
            return None
        try:
            m = self.view.macro_at(name, at)
            if m is None and name in _DEFINED and (given := self.view.env.macros.get(name)) is not None:
                return _Given(given)
            return m
        except Exception:  # noqa: BLE001 - someone else's code
            return None

    def text_of(self, node: Node, at: int, depth: int = 0) -> str | None:
        """The text `node` (an identifier or a call, used at `at`) stands for after its macros
        are expanded; None when it is no macro or not one that can be read."""
        if depth > MAX_DEPTH:
            return None
        if node.type == "identifier":
            m = self.macro(_text(node), at)
            if m is None or getattr(m, "params", None) is not None or getattr(m, "variadic", False):
                return None
            return self._expand_names(m.body, at, depth, frozenset({_text(node)}))
        if node.type == "call_expression":
            fn = node.child_by_field_name("function")
            args = node.child_by_field_name("arguments")
            if fn is None or fn.type != "identifier" or args is None:
                return None
            m = self.macro(_text(fn), at)
            params = getattr(m, "params", None) if m is not None else None
            if params is None or getattr(m, "variadic", False):
                return None
            passed = [_text(a) for a in args.named_children if a.type != "comment"]
            if len(passed) != len(params):
                return None
            table = dict(zip(params, passed))
            body = _IDENT.sub(lambda g: f"({table[g.group(0)]})" if g.group(0) in table else g.group(0), m.body)
            return self._expand_names(body, at, depth, frozenset({_text(fn)}))
        return None

    def _expand_names(self, body: str, at: int, depth: int, hide: frozenset[str]) -> str | None:
        """Object-like macros inside a body, expanded in turn (not those being expanded)."""
        if "#" in body or len(body) > MAX_TEXT:
            return None

        def one(g: re.Match[str]) -> str:
            word = g.group(0)
            if word in hide:
                return word
            m = self.macro(word, at)
            if m is None or getattr(m, "params", None) is not None:
                return word
            inner = self._expand_names(m.body, at, depth + 1, hide | {word}) if depth < MAX_DEPTH else None
            return f"({inner})" if inner is not None else word
        return _IDENT.sub(one, body)

    def expression(self, node: Node, at: int) -> Node | None:
        """The expansion of the macro use `node` as an expression tree (None: not readable)."""
        text = self.text_of(node, at)
        if text is None or not text.strip():
            return None
        if text not in self._trees:
            self._trees[text] = self._parse_expression(text)
        return self._trees[text]

    def _parse_expression(self, text: str) -> Node | None:
        src = f"void __cllint_macro(void) {{ (void)({text}); }}\n".encode()
        try:
            tree = self.parse(src)
        except Exception:  # noqa: BLE001 - a body that is no expression
            return None
        self._kept.append(tree)
        return _expression(tree)


def _expression(tree: Any) -> Node | None:
    if tree.root_node.has_error:
        return None
    node = tree.root_node
    for kind in ("function_definition", "compound_statement", "expression_statement", "cast_expression"):
        node = next((c for c in node.named_children if c.type == kind), None) if kind != "cast_expression" \
            else node.named_children[0] if node.named_children else None
        if node is None:
            return None
    value = node.child_by_field_name("value")
    return value
