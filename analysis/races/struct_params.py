"""A private struct handed to a helper (`put(s, i, v)`, `put(&s, i, v)`) whose fields hold
pointers into shared memory (`s.p = A;`, `ref_t s = { A, 1 };`): inside the helper, `s.p[i]`
and `s->p[i]` are accesses to what the caller's `s.p` points into.

Followed only where the helper reads the struct's fields and nothing else: every use of the
parameter is `s.f` (or `s->f`) that is not stored into, incremented or has its address taken,
or the parameter handed on whole (`put(s, ...)`, `put(&s, ...)` of a by-value one) to a helper
that in turn only reads it (round 16), and the parameter is never assigned. A helper that
stores into the struct (by value: its own copy; by pointer: the caller's) changes which pointer
a later use sees, which is not read here: its struct parameter stays unbound, and the accesses
through it stay out of the check. The caller's side (races/definitions.py) lends `&s` to such a helper without taking the
struct's fields as stored.
"""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from tree_sitter import Node

from cllint.analysis.syntax import walk
from cllint.analysis.uniformity.names import Names, VarInfo

_STORES = frozenset({"assignment_expression", "update_expression"})
_MAX_HANDED = 4  # helpers a struct is handed on through, past the first


def _bare(node: Node | None) -> Node | None:
    while node is not None and node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def struct_argument(arg: Node, names: Names, handed: Container[int] = ()) -> Node | None:
    """The identifier of a private struct an argument hands over, by value (`s`) or by its
    address (`&s`), or of a pointer parameter the caller was itself handed a struct by (`s` of
    `ref_t *s`, its key in `handed`); None for anything else (a pointer, an array, a scalar of a
    primitive type)."""
    arg = _bare(arg)
    if arg is not None and arg.type == "pointer_expression" and arg.child_by_field_name("operator") is not None \
            and arg.child_by_field_name("operator").type == "&":
        arg = _bare(arg.child_by_field_name("argument"))
    if arg is None or arg.type != "identifier":
        return None
    v = names.var(arg)
    return arg if v is not None and (_is_struct(v) or v.key in handed) else None


def _is_struct(v: VarInfo) -> bool:
    """A private variable of a named type that is not a pointer, an array or shared: a struct
    (or a typedef of a scalar, whose fields nothing reads)."""
    if v.pointer or v.array or v.shared:
        return False
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    t = decl.child_by_field_name("type") if decl is not None else None
    return t is not None and t.type in ("type_identifier", "struct_specifier")


def reads_fields_only(body: Node, names: Names, v: VarInfo, functions: Any = None,
                      names_of: Callable[[str], Names] | None = None, depth: int = 0) -> bool:
    """Whether every use of parameter `v` in `body` reads one of its fields (`v.f`, `v->f`),
    none of them stored into, incremented or taken the address of, or hands it on to a helper
    of `functions` (read by `names_of`) that in turn only reads the parameter it binds."""
    if not _is_struct(v) and not (v.pointer and not v.array):
        return False
    for n in walk(body):
        if n.type != "identifier" or names.var(n) is not v:
            continue
        use = n.parent
        while use is not None and use.type == "parenthesized_expression":
            use = use.parent
        if use is not None and use.type == "argument_list" or use is not None and _address_argument(use, v):
            if _handed_to_reader(n if use.type == "argument_list" else use, functions, names_of, depth):
                continue  # `put(s, ...)`, `put(&s, ...)` to a helper that only reads it
            return False
        if use is None or use.type != "field_expression" or _bare(use.child_by_field_name("argument")) != n:
            return False  # passed on, assigned, dereferenced whole
        outer = use.parent
        while outer is not None and outer.type in ("parenthesized_expression", "field_expression"):
            use, outer = outer, outer.parent
        if outer is None:
            return False
        if outer.type in _STORES and (outer.child_by_field_name("left") == use
                                      or outer.child_by_field_name("argument") == use):
            return False  # `s.p = B`, `s->n++`
        if outer.type == "pointer_expression" and outer.child_by_field_name("operator") is not None \
                and outer.child_by_field_name("operator").type == "&":
            return False  # `&s->p`: may be stored through
    return True


def _address_argument(use: Node, v: VarInfo) -> bool:
    """`&s` of a by-value struct parameter `v`, written as an argument (`put(&s, ...)`)."""
    op = use.child_by_field_name("operator") if use.type == "pointer_expression" else None
    outer = use.parent
    while outer is not None and outer.type == "parenthesized_expression":
        outer = outer.parent
    return op is not None and op.type == "&" and not v.pointer and outer is not None and outer.type == "argument_list"


def _handed_to_reader(arg: Node, functions: Any, names_of: Callable[[str], Names] | None, depth: int) -> bool:
    """Whether `arg` (`s`, `&s`) is an argument of a call to a helper of `functions` whose
    parameter there only reads the struct's fields, or hands it on alike, up to _MAX_HANDED deep."""
    if functions is None or names_of is None or depth >= _MAX_HANDED:
        return False
    args = arg.parent
    while args is not None and args.type == "parenthesized_expression":
        arg, args = args, args.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    name = callee.text.decode("utf-8", "replace") if callee is not None and callee.type == "identifier" \
        and callee.text else ""
    if not name or name not in functions:
        return False
    body = functions[name].child_by_field_name("body")
    at = [a for a in args.named_children if a.type != "comment"].index(arg)
    names = names_of(name)
    param = next((p for p in names.variables if p.param_index == at), None)
    return body is not None and param is not None \
        and reads_fields_only(body, names, param, functions, names_of, depth + 1)


def lent_to_reader(amp: Node, functions: Any, names_of: Callable[[str], Names]) -> bool:
    """Whether `&s` (`amp`) is an argument of a call to a helper of the file that only reads
    the fields of the parameter it binds (`reads_fields_only`): the call stores nothing into
    `s`, so what `s.p = A;` defined still holds after it."""
    args = amp.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    callee = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    name = callee.text.decode("utf-8", "replace") if callee is not None and callee.type == "identifier" \
        and callee.text else ""
    if not name or name not in functions:
        return False
    func = functions[name]
    body = func.child_by_field_name("body")
    at = [a for a in args.named_children if a.type != "comment"].index(amp)
    names = names_of(name)
    param = next((v for v in names.variables if v.param_index == at), None)
    return body is not None and param is not None and param.pointer \
        and reads_fields_only(body, names, param, functions, names_of)
