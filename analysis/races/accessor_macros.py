"""Function-like macros that stand for an element (`#define AT(a, i, j) a[(i) * N + (j)]`):
a use of one (`AT(l, y, x) = v;`, `... = AT(l, x, y)`) is the subscript it expands to.

The expansion is a tree of its own (races/macros.py): its indices are read by an evaluator
of that tree (`Evaluator.expansion_reader`), and what it subscripts is the argument the use
passes for it, a node of the kernel's own tree, so the pointer is followed as written there
(`AT(p + off, i, j)` too). A subscripted name the macro names itself (`#define L(i) lds[i]`)
is the function's variable of that name, where it has exactly one.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from cllint.analysis.races.evaluate import Evaluator
from cllint.analysis.races.macros import ByName, Expander


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _bare(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression" and n.named_child_count == 1:
        n = n.named_children[0]
    return n


class MacroSubscripts:
    """Reads the element a macro use stands for; one per kernel (its evaluators live as
    long as the kernel's accesses)."""

    def __init__(self, expander: Expander, ev: Evaluator) -> None:
        self.expander, self.ev = expander, ev
        self._by_name: ByName | None = None

    def __call__(self, call: Node) -> tuple[Node, tuple[Node, ...], Any, tuple[Node, ...]] | None:
        """(the pointer expression subscripted, in the kernel's tree; the indices, outermost
        first, in the expansion's; their evaluator; the use's arguments, the kernel syntax
        the indices are made of, where loop counters are found) for a macro use that expands
        to a subscript; None for anything else."""
        fn = call.child_by_field_name("function")
        args = call.child_by_field_name("arguments")
        if fn is None or fn.type != "identifier" or args is None:
            return None
        m = self.expander.macro(_text(fn), call.start_byte)
        if m is None or getattr(m, "params", None) is None:
            return None
        node = _bare(self.expander.expression(call, call.start_byte))
        if node is None or node.type != "subscript_expression":
            return None
        chain: list[Node] = []
        root: Node | None = node
        while root is not None and root.type == "subscript_expression":
            index = root.child_by_field_name("index")
            if index is None:
                return None
            chain.append(index)
            root = _bare(root.child_by_field_name("argument"))
        if root is None:
            return None
        passed = [a for a in args.named_children if a.type != "comment"]
        pointer = self._in_kernel(root, passed)
        if pointer is None:
            return None
        return pointer, tuple(reversed(chain)), self.ev.expansion_reader(call.start_byte), tuple(passed)

    def _in_kernel(self, root: Node, passed: list[Node]) -> Node | None:
        """The kernel's node for what the expansion subscripts: the argument spelt as it is,
        else the declaration of the one variable of its name."""
        want = "".join(_text(root).split())
        for a in passed:
            b = _bare(a)
            if b is not None and "".join(_text(b).split()) == want:
                return b
        if root.type != "identifier":
            return None
        if self._by_name is None:
            self._by_name = ByName(self.ev.names)
        v = self._by_name.var(root)
        return v.decl if v is not None and v.decl is not None and v.decl.type == "identifier" else None
