"""Writes to memory of types narrower than 32 bits on OpenCL C 1.0: `out[i] = v` with
`global uchar *out`, `s->tag += 1`, `--p[0]` with `short *p`.

Spec, "Restrictions" (OpenCL C 1.0 only, and only where `cl_khr_byte_addressable_store` is not
supported): writes to a pointer or array of `char`, `uchar`, `char2`, `uchar2`, `short` or
`ushort`, or to struct elements of those types, are not supported; 1.1 made the extension core.
The restriction names pointers and arrays whatever their address space, so a `__local` tile
or a private array counts; a plain variable of such a type (`uchar c; c = 1;`) is no write
through a pointer, an array or a struct, and neither is a read. `half` is left to
`cl_khr_fp16` (half_access.py), which already gates every store through a pointer to half.
clang-19 does not check this restriction.

The restriction speaks of writes, not of operators: `vstore4(v, i, p)` with `global uchar *p`
writes through a pointer to `uchar` as `p[i] = v` does, so the `vstore`n built-ins into those
pointers count too, and `vstore_half`n/`vstorea_half`n (which need no `cl_khr_fp16`) into a
`half` pointer, which the restriction also names.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node, Tree

from ..model import Array, Pointer, Scalar, SemanticModel, Struct, Type, Vector
from ..model.walk import nodes_of_kinds
from .uses import Use, _Items
from cllint.analysis.lazy_re import lazy

BYTE_ADDRESSABLE: tuple[tuple[str, ...], ...] = (("cl_khr_byte_addressable_store",),)
_NARROW = frozenset({"char", "uchar", "short", "ushort"})
_NARROW_VECTORS = frozenset({"char", "uchar"})  # char2 and uchar2 (16 bits); char4 is 32
_STORES = frozenset({"assignment_expression", "update_expression"})
_VISITED = _STORES | {"call_expression"}
_VSTORE = lazy(r"^vstore(?:\d+|a?_half\d*(?:_rt[enpz])?)$")  # vstore4, vstore_half, vstorea_half4_rte
_MEMORY = frozenset({"subscript_expression", "pointer_expression", "field_expression"})


def _narrow(t: Type) -> str | None:
    """The type's name when the restriction names it."""
    if isinstance(t, Scalar) and t.name in _NARROW:
        return t.name
    if isinstance(t, Vector) and t.n == 2 and t.elem.name in _NARROW_VECTORS:
        return t.name
    return None


def _target_of(store: Node) -> Node | None:
    """What the assignment or `++`/`--` writes, parentheses stripped."""
    node = store.child_by_field_name("left" if store.type == "assignment_expression" else "argument")
    while node is not None and node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def _through_memory(model: SemanticModel, node: Node) -> bool:
    """`node` names an element of a pointer, an array or a struct: `p[i]`, `*p`, `s.f`, `p->f`;
    a component of a vector counts when the vector itself is such an element (`c2[i].x`)."""
    if node.type == "subscript_expression":
        return True
    if node.type == "pointer_expression":
        op = node.child_by_field_name("operator")
        return op is not None and op.type == "*"
    if node.type != "field_expression":
        return False
    base = node.child_by_field_name("argument")
    if base is None:
        return False
    op = node.child_by_field_name("operator")
    if op is not None and op.type == "->":
        return True
    t = model.type_of(base)
    if isinstance(t, Struct):
        return True
    inner = base
    while inner.type == "parenthesized_expression" and inner.named_children:
        inner = inner.named_children[0]
    return isinstance(t, Vector) and inner.type in _MEMORY and _through_memory(model, inner)


def _vstore_pointer(model: SemanticModel, call: Node) -> str | None:
    """The pointer a `vstore` built-in writes through, as the message quotes it, when its
    pointee is one the restriction names; None for other calls and pointers, a function of the
    file's own, or a pointer the model cannot type. A `half` pointer counts only for
    `vstore_half`n (`vstore4` of `half4` needs `cl_khr_fp16` first, reported at the type)."""
    fn = call.child_by_field_name("function")
    args = call.child_by_field_name("arguments")
    if fn is None or fn.type != "identifier" or args is None or fn.text is None:
        return None
    name = fn.text.decode("utf-8", "replace")
    own = model.resolve(fn)
    if not _VSTORE.match(name) or (own is not None and own.node is not None):
        return None  # the file's own `vstore4` (a built-in's symbol has no node)
    operands = [a for a in args.named_children if a.type != "comment"]
    if len(operands) != 3:
        return None
    t = model.type_of(operands[2])
    if isinstance(t, Array):
        t = t.decay()
    if not isinstance(t, Pointer) or not isinstance(t.pointee, Scalar):
        return None
    pointee = t.pointee.name
    if pointee not in _NARROW and not (pointee == "half" and "_half" in name):
        return None
    return f"{t.space.spelling} {pointee} *"


def byte_stores(model: Callable[[], SemanticModel], tree: Tree, source: bytes,
                focus: list[tuple[int, int]] | None = None) -> list[Use]:
    """Each write of a `char`, `uchar`, `char2`, `uchar2`, `short` or `ushort` through a
    pointer, an array or a struct field (starting in `focus`), and each `vstore` into such a
    pointer. Left alone when the model cannot type it."""
    out: list[Use] = []
    built: SemanticModel | None = None
    items = _Items(tree.root_node)  # each store's statement, read going down in start order
    for store in sorted(nodes_of_kinds(tree.root_node, _VISITED, ordered=False, ranges=focus),
                        key=lambda n: n.start_byte):
        if store.type == "call_expression":
            fn = store.child_by_field_name("function")
            if fn is None or not _VSTORE.match(source[fn.start_byte:fn.end_byte].decode("utf-8", "replace")):
                continue  # most calls: no model needed
            try:
                built = built or model()
                pointer = _vstore_pointer(built, store)
            except (AttributeError, ValueError, IndexError, RecursionError):  # odd trees: skip
                continue
            if pointer is not None:
                name = source[fn.start_byte:fn.end_byte].decode("utf-8", "replace")
                out.append(Use(fn.start_byte, fn.end_byte, "built-in", name, None, BYTE_ADDRESSABLE, None,
                               items.of(fn), detail=f" into '{pointer}'"))
            continue
        try:
            target = _target_of(store)
            if target is None or target.type not in _MEMORY:
                continue
            built = built or model()
            name = _narrow(built.type_of(target))
            if name is None or not _through_memory(built, target):
                continue
        except (AttributeError, ValueError, IndexError, RecursionError):  # odd trees: skip
            continue
        text = source[target.start_byte:target.end_byte].decode("utf-8", "replace")
        out.append(Use(target.start_byte, target.end_byte, "store", text, None, BYTE_ADDRESSABLE, None,
                       items.of(target), detail=f" of type '{name}'"))
    out.sort(key=lambda u: (u.start, u.end))
    return out

