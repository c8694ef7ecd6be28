"""Pointers held in a private array, for the race check (races round 11): `global int *ps[2] =
{a, b};` (or `ps[0] = a; ps[1] = a + 4;` at the body's top level) makes `ps[k][i]` an access
to the `k`th pointer's target (frames.Frame.targets_of): a constant `k` is that element, any
other `k` of a two-element array picks `ps[1]` where it is non-zero and `ps[0]` where it is
zero, as `k ? ps[1] : ps[0]` would (the only places in bounds); of three or more, `ps[i]` where
`k` is `i` (round 12: `ps[lid % 3]`, a loop over `ps[i]`).

Only where that reading is exact: every element is given once, by the initialiser or by a
top-level `ps[constant] = e;` statement before any other use, and the array is used nowhere
else but as `ps[k]` read (no `&ps`, no `ps` passed or stored whole, no store at another index).
"""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.races.choices import declared_value
from cllint.analysis.uniformity.names import Names, VarInfo

_USES = frozenset({"identifier"})


def _bare(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _literal(node: Node | None) -> int | None:
    node = _bare(node) if node is not None else None
    if node is None or node.type != "number_literal" or not node.text:
        return None
    try:
        return int(node.text.decode().rstrip("uUlL"), 0)
    except ValueError:
        return None


def _private_pointer_array(v: VarInfo) -> bool:
    return v.pointer and v.array and v.param_index is None and not v.shared


def pointer_arrays(body: Node, names: Names) -> dict[int, tuple[Node, ...]]:
    """Key of each private array of pointers read this way -> its elements' values, in order."""
    arrays = {v.key: v for v in names.variables if _private_pointer_array(v)}
    if not arrays:
        return {}  # the common kernel
    values: dict[int, dict[int, Node]] = {}
    spoiled: set[int] = set()
    first_read: dict[int, int] = {}
    stores: dict[int, list[tuple[int, Node]]] = {}
    for n in nodes_of_kinds(body, _USES):
        v = names.var(n)
        if v is None or v.key not in arrays or n == v.decl:
            continue
        sub = n.parent
        if sub is None or sub.type != "subscript_expression" or sub.child_by_field_name("argument") != n:
            spoiled.add(v.key)  # `&ps`, `f(ps)`, `q = ps`: not followed
            continue
        up = sub.parent
        if up is not None and up.type == "assignment_expression" and up.child_by_field_name("left") == sub:
            k = _literal(sub.child_by_field_name("index"))
            st = up.parent
            if k is None or _text(up.child_by_field_name("operator")) != "=" or st is None \
                    or st.type != "expression_statement" or st.parent != body:
                spoiled.add(v.key)
                continue
            stores.setdefault(v.key, []).append((k, up.child_by_field_name("right")))
            if k in values.setdefault(v.key, {}):
                spoiled.add(v.key)
            values[v.key][k] = up.child_by_field_name("right")
            continue
        if up is not None and (up.type == "update_expression" or up.type == "pointer_expression"
                               and _text(up.child_by_field_name("operator")) == "&"):
            spoiled.add(v.key)
            continue
        first_read.setdefault(v.key, n.start_byte)
    out: dict[int, tuple[Node, ...]] = {}
    for key, v in arrays.items():
        if key in spoiled:
            continue
        given = dict(values.get(key, {}))
        init = _initialiser(v)
        if init is not None:
            if given:
                continue  # both: which one a use sees is not read here
            given = dict(enumerate(init))
        if not given or sorted(given) != list(range(len(given))) or any(x is None for x in given.values()):
            continue
        last_store = max((e.start_byte for _, e in stores.get(key, [])), default=-1)
        if last_store > first_read.get(key, 1 << 62):
            continue  # read before it is filled
        out[key] = tuple(given[i] for i in range(len(given)))
    return out


def _initialiser(v: VarInfo) -> list[Node] | None:
    """The elements of `{a, b}` at the array's declaration; None without one."""
    value = declared_value(v)
    if value is None or value.type != "initializer_list":
        return None
    items = [c for c in value.named_children if c.type != "comment"]
    return None if any(c.type == "initializer_pair" for c in items) else items


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""
