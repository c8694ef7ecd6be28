"""A private struct filled by a helper, for the race check: `init(&s, A)` where `init` stores
`s->p = buf;`, or `ref_t s = make(A)` where `make` returns a struct whose `p` is `buf`. The
caller's `s.p` then points where the argument does, as if written `s.p = A;` (races/definitions.py).

Read only where the helper does nothing else: a filler's statements are all `s->f = e;` on the
struct parameter (which nothing else names); a maker declares one struct (an initialiser list
or none), stores `r.f = e;` and returns it. A field whose value is a parameter the helper never
assigns is the caller's argument; one whose value is such a pointer parameter moved by a
constant or by such a scalar parameter (`buf + o`, `o + buf`, `buf - 1`, `&buf[o]`) is the
caller's argument moved by the caller's (a `Shifted`); any other value leaves the field
undefined (not read).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from cllint.analysis.races.frames import struct_fields
from cllint.analysis.uniformity.names import Names, VarInfo

MAX_SHIFTS = 4  # offsets added to one pointer parameter (`buf + o + 1`)


class Shifted:
    """A field given `buf + o`: the caller's argument for `buf` (`base`), moved by each of
    `offsets` (a node the caller evaluates, its argument for `o`, or the helper's literal, and
    a sign), counted in the pointer's elements."""

    __slots__ = ("base", "offsets")
    base: Node
    offsets: tuple[tuple[Node, int], ...]

    def __init__(self, base: Node, offsets: tuple[tuple[Node, int], ...]) -> None:
        self.base = base
        self.offsets = offsets

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(base={self.base!r}, offsets={self.offsets!r})"


def _bare(node: Node | None) -> Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _callee(call: Node, functions: Any) -> tuple[str, Node, list[Node]] | None:
    fn = call.child_by_field_name("function") if call.type == "call_expression" else None
    args = call.child_by_field_name("arguments")
    name = fn.text.decode("utf-8", "replace") if fn is not None and fn.type == "identifier" and fn.text else ""
    if not name or name not in functions or args is None:
        return None
    body = functions[name].child_by_field_name("body")
    return (name, body, [a for a in args.named_children if a.type != "comment"]) if body is not None else None


def filled_by_pointer(amp: Node, functions: Any, names_of: Callable[[str], Names]
                      ) -> dict[str, Node | Shifted] | None:
    """Field -> the caller's argument it is given, for `&s` (`amp`) handed to a filler; None
    where the call is no filler's."""
    args = amp.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    got = _callee(call, functions) if call is not None else None
    if got is None:
        return None
    name, body, actual = got
    names = names_of(name)
    at = actual.index(amp) if amp in actual else -1
    param = next((v for v in names.variables if v.param_index == at), None)
    if param is None or not param.pointer:
        return None
    out: dict[str, Node | Shifted] = {}
    for st in body.named_children:
        if st.type == "comment":
            continue
        e = st.named_children[0] if st.type == "expression_statement" and st.named_child_count == 1 else None
        left = e.child_by_field_name("left") if e is not None and e.type == "assignment_expression" else None
        if left is None or left.type != "field_expression" or e.child_by_field_name("operator").type != "=" \
                or left.child_by_field_name("operator").type != "->" \
                or names.var(_bare(left.child_by_field_name("argument"))) is not param:
            return None
        field = left.child_by_field_name("field")
        value = _parameter_argument(e.child_by_field_name("right"), names, actual, param)
        if field is not None and field.text and value is not None:
            out[field.text.decode()] = value
    uses = sum(1 for u in names.uses.values() if u is param) - 1  # (its declaration)
    return out if uses == len([s for s in body.named_children if s.type != "comment"]) else None


def made(call: Node, functions: Any, names_of: Callable[[str], Names]) -> dict[str, Node | Shifted] | None:
    """Field -> the caller's argument it is given, for `make(...)` of a helper that builds a
    struct and returns it; None where it is no such helper."""
    got = _callee(call, functions)
    if got is None:
        return None
    name, body, actual = got
    names = names_of(name)
    stmts = [s for s in body.named_children if s.type != "comment"]
    if len(stmts) < 2 or stmts[0].type != "declaration" or stmts[-1].type != "return_statement":
        return None
    decl = stmts[0]
    ds = decl.children_by_field_name("declarator")
    if len(ds) != 1:
        return None
    d = ds[0]
    ident = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
    r = names.var(ident) if ident is not None and ident.type == "identifier" else None
    ret = _bare(stmts[-1].named_children[0]) if stmts[-1].named_child_count == 1 else None
    if r is None or r.pointer or r.array or ret is None or names.var(ret) is not r:
        return None
    out: dict[str, Node | Shifted] = {}
    init = d.child_by_field_name("value") if d.type == "init_declarator" else None
    if init is not None:
        t = decl.child_by_field_name("type")
        order = struct_fields(t) if t is not None and t.type == "type_identifier" else None
        items = [c for c in init.named_children if c.type != "comment"] if init.type == "initializer_list" else None
        if not order or items is None or any(c.type == "initializer_pair" for c in items):
            return None
        for f, item in zip(order, items):
            value = _parameter_argument(item, names, actual, r)
            if value is not None:
                out[f.decode()] = value
    for st in stmts[1:-1]:
        e = st.named_children[0] if st.type == "expression_statement" and st.named_child_count == 1 else None
        left = e.child_by_field_name("left") if e is not None and e.type == "assignment_expression" else None
        fp = names.field_path(left) if left is not None and left.type == "field_expression" else None
        if fp is None or fp[0] is not r or "." in fp[1] or e.child_by_field_name("operator").type != "=":
            return None
        value = _parameter_argument(e.child_by_field_name("right"), names, actual, r)
        if fp[1] in out or init is not None:
            return None  # stored twice: which value the caller sees is not read
        if value is not None:
            out[fp[1]] = value
    return out


def _parameter_argument(value: Node | None, names: Names, actual: list[Node], own: VarInfo
                        ) -> Node | Shifted | None:
    """The caller's argument behind `value` where it is a parameter of the helper (not `own`),
    or behind a pointer parameter moved by constants and scalar parameters (`buf + o`)."""
    v = _parameter(value, names, actual, own)
    if v is not None:
        return actual[v.param_index]  # type: ignore[index]
    offsets: list[tuple[Node, int]] = []
    base = _moved_base(_bare(value), names, actual, own, offsets)
    return Shifted(actual[base.param_index], tuple(offsets)) \
        if base is not None and base.pointer and offsets and len(offsets) <= MAX_SHIFTS else None


def _parameter(value: Node | None, names: Names, actual: list[Node], own: VarInfo) -> VarInfo | None:
    """The parameter `value` names, where the helper never assigns it and the call passes it."""
    v = names.var(_bare(value)) if _bare(value) is not None and _bare(value).type == "identifier" else None
    if v is None or v is own or v.param_index is None or not v.param_index < len(actual):
        return None
    assigned = any(u is v for at, u in names.uses.items() if at != v.key and _assigned_at(value, at))
    return None if assigned else v


def _moved_base(value: Node | None, names: Names, actual: list[Node], own: VarInfo,
                offsets: list[tuple[Node, int]]) -> VarInfo | None:
    """The pointer parameter `value` moves (`buf + o`, `&buf[o]`), its offsets appended as the
    caller reads them; None where a part is anything else."""
    if value is None:
        return None
    if value.type == "identifier":
        return _parameter(value, names, actual, own)
    if value.type == "pointer_expression" and value.child_by_field_name("operator").type == "&":
        sub = _bare(value.child_by_field_name("argument"))
        if sub is None or sub.type != "subscript_expression":
            return None
        index = _offset(sub.child_by_field_name("index"), names, actual, own)
        base = _moved_base(_bare(sub.child_by_field_name("argument")), names, actual, own, offsets)
        if index is None or base is None:
            return None
        offsets.append((index, 1))
        return base
    if value.type != "binary_expression" or value.child_by_field_name("operator").type not in ("+", "-"):
        return None
    sign = 1 if value.child_by_field_name("operator").type == "+" else -1
    left, right = _bare(value.child_by_field_name("left")), _bare(value.child_by_field_name("right"))
    for ptr, off in [(left, right)] + ([(right, left)] if sign == 1 else []):  # (`o + buf` too)
        mark = len(offsets)
        base = _moved_base(ptr, names, actual, own, offsets)
        node = _offset(off, names, actual, own) if base is not None and base.pointer else None
        if node is not None:
            offsets.append((node, sign))
            return base
        del offsets[mark:]
    return None


def _offset(value: Node | None, names: Names, actual: list[Node], own: VarInfo) -> Node | None:
    """An offset the caller can read: the helper's integer literal, or the caller's argument
    for a scalar parameter the helper never assigns."""
    value = _bare(value)
    if value is None:
        return None
    if value.type == "number_literal":
        return value if value.text and value.text.rstrip(b"uUlL").isdigit() else None
    v = _parameter(value, names, actual, own)
    return actual[v.param_index] if v is not None and not v.pointer and not v.array else None  # type: ignore[index]


def _assigned_at(any_node: Node, at: int) -> bool:
    """Whether the identifier at byte `at` of the helper is the target of a store."""
    root = any_node
    while root.parent is not None:
        root = root.parent
    n = root.descendant_for_byte_range(at, at + 1)
    p = n.parent if n is not None else None
    if p is None:
        return False
    if p.type == "assignment_expression" and p.child_by_field_name("left") == n:
        return True
    return p.type == "update_expression" or p.type == "pointer_expression" and p.child_by_field_name("operator").type == "&"


def filled(node: Node, functions: Any, names_of: Callable[[str], Names]) -> dict[str, Node | Shifted] | None:
    """`&s` handed to a filler, or `make(...)` of a maker: the fields it gives `s`."""
    if node.type == "pointer_expression":
        return filled_by_pointer(node, functions, names_of)
    return made(node, functions, names_of) if node.type == "call_expression" else None
