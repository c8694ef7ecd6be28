"""A private array that is a table of constants: initialised by a list of integer literals and
never written, its address never taken (`int idx[4] = {0, 1, 2, 0}; a[idx[lid % 4]]`), as a
program-scope `__constant` table already is (evaluate.py `_table`): an index read from it is
the literal it holds."""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.uniformity.names import Names, VarInfo

_IDENTIFIERS = frozenset({"identifier"})
MAX_ELEMENTS = 256  # a longer initialiser is not read


def private_table(v: VarInfo, names: Names) -> tuple[int | None, ...] | None:
    """The elements of `v`, a one-dimensional private array whose every use is a read of an
    element; an element that is no integer literal is None. None: not such a table."""
    if not v.array or v.pointer or v.shared or v.param_index is not None:
        return None
    arr = v.decl.parent
    init = arr.parent if arr is not None and arr.type == "array_declarator" else None
    value = init.child_by_field_name("value") if init is not None and init.type == "init_declarator" else None
    if value is None or value.type != "initializer_list" or arr.child_by_field_name("declarator") != v.decl:
        return None
    items = [c for c in value.named_children if c.type != "comment"]
    if not items or len(items) > MAX_ELEMENTS:
        return None
    func = init
    while func is not None and func.type != "function_definition":
        func = func.parent
    for n in nodes_of_kinds(func if func is not None else init, _IDENTIFIERS, ordered=False):
        if n.text != v.decl.text or n == v.decl or (u := names.var(n)) is None or u.key != v.key:
            continue
        sub = n.parent
        if sub is None or sub.type != "subscript_expression" or sub.child_by_field_name("argument") != n:
            return None  # passed, assigned whole or pointed at: it may change
        use = sub.parent
        while use is not None and use.type == "parenthesized_expression":
            use = use.parent
        if use is None or use.type == "update_expression" or use.type == "assignment_expression" \
                and use.child_by_field_name("left") in (sub, sub.parent) \
                or use.type == "pointer_expression" and use.child_by_field_name("operator") is not None \
                and use.child_by_field_name("operator").text == b"&":
            return None  # an element written, or its address taken
    return tuple(_literal(c) for c in items)


def _literal(n: Node) -> int | None:
    t = (n.text or b"").decode("ascii", "replace").rstrip("uUlL")
    try:
        return int(t, 0) if t and (t[0].isdigit() or t[0] == "-" and t[1:2].isdigit()) else None
    except ValueError:
        return None
