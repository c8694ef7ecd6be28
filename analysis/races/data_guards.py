"""Which tests of loaded data may let one work-item only through (races round 11).

A guard on the work-item's own datum (`if (flags[lid] > 0)`, `if (in[gid] < b[gid])`, `if (f)`
of `int f = flags[lid]`) holds wherever the data says so: every flagged work-item passes it at
once, and the accesses under it race as any others do. A test of the datum for equality with a
key (`if (x[lid] == best[0])`, `if (a[gid] == key)`: "is the key mine?") is the search idiom,
whose data may hold the key once; the race check keeps such guards' accesses from racing with
each other (`_Kernel.collide`). An atomic's returned value is data too: a relational test of it
(`atomic_inc(c) < 2`) lets several work-items through, an equality test one.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

_PLAIN = frozenset({"number_literal", "char_literal", "true", "false"})


def _strip(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[-1]
    return node


def selective(cond: Node | None, definition: Callable[[Node], Node | None], depth: int = 0) -> bool:
    """Whether `cond` compares loaded data for equality with something other than a constant
    (a key), through private variables defined once (`definition` of an identifier)."""
    if cond is None or depth > 4:
        return False
    cond = _strip(cond)
    if cond.type == "identifier":
        d = definition(cond)
        return d is not None and selective(d, definition, depth + 1)
    if cond.type != "binary_expression":
        return False
    op = cond.child_by_field_name("operator")
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    if op is None or op.type != "==" or left is None or right is None:
        return False
    # a constant on either side is a flag's test (`flags[lid] == 1`), not a key's; but an atomic's
    # returned value is each work-item's own (`atomic_inc(c) == 0`: the first one in; a lock's
    # `atomic_cmpxchg(l, 0, 1) == 0`: its holder)
    if _atomic(_strip(left), definition) or _atomic(_strip(right), definition):
        return True
    return not (_constant(_strip(left)) or _constant(_strip(right)))


def _atomic(node: Node, definition: Callable[[Node], Node | None]) -> bool:
    """An atomic's call, or a private variable defined once by one (`int old = atomic_inc(c)`)."""
    if node.type == "identifier":
        d = definition(node)
        node = _strip(d) if d is not None else node
    fn = node.child_by_field_name("function") if node.type == "call_expression" else None
    return fn is not None and fn.type == "identifier" and (fn.text or b"").startswith((b"atomic_", b"atom_"))


def _constant(node: Node) -> bool:
    if node.type == "unary_expression" and node.named_children:
        return _constant(_strip(node.named_children[-1]))
    if node.type == "identifier" and node.text and node.text.isupper():
        return True  # a macro's constant (`FLAG_SET`)
    return node.type in _PLAIN
