"""Vectors and structs: vector literals with the wrong number of components (CL015),
swizzles beyond the vector or with letters it does not have (CL016), and members a struct
does not declare (CL017). Judged only on types the file shows completely."""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.findings import Edit, FixPlan
from cllint.analysis.model.types import Array, Pointer, Scalar, Struct, Type, Vector, swizzle_indices

from .context import Body, known

_XYZW, _HEX = "xyzw", "0123456789abcdef"


def check_vector_literal(body: Body, lit: Node) -> None:
    t = body.fm.type_of(lit)
    if not isinstance(t, Vector) or lit.has_error:
        return
    elements = [c for c in lit.children_by_field_name("element") if c.type != "comment"]
    if len(elements) <= 1:
        return  # (float4)(x): one scalar fills every component (a vector: assignments.py)
    have = 0
    for e in elements:
        if not body.certain(e):
            return
        et = body.fm.type_of(e)
        if isinstance(et, Vector):
            have += et.n
        elif isinstance(et, Scalar) and not et.is_void:
            have += 1
        else:
            return
    if have == t.n:
        return
    name = body.text(lit.child_by_field_name("type") or lit)
    if have < t.n:
        message = f"too few elements in vector initialization of '{name}' (expected {t.n} elements, have {have})"
    else:
        message = f"excess elements in vector initialization of '{name}' (expected {t.n} elements, have {have})"
    body.add("CL015", lit.start_byte, lit.end_byte, message)


def check_field(body: Body, expr: Node) -> None:
    arg, field = expr.child_by_field_name("argument"), expr.child_by_field_name("field")
    op = expr.child_by_field_name("operator")
    if arg is None or field is None or op is None or expr.has_error or not body.certain(arg):
        return
    t = body.fm.type_of(arg)
    arrow = body.text(op) == "->"
    if _wrong_operator(body, op, t, arrow):
        return
    if arrow:
        if not isinstance(t, (Pointer, Array)):
            return
        t = t.pointee if isinstance(t, Pointer) else t.elem
    t = body.fm.typer.complete(t)
    name = body.text(field)
    if isinstance(t, Vector) and not arrow:
        _swizzle(body, field, t, name)
    elif isinstance(t, Struct) and t.fields is not None and known(t):
        if t.field(name) is not None or any(not f.name for f in t.fields):
            return
        what = struct_name(body, t)
        if body.seen_once("CL017", f"{name} {what}", field.start_byte, field.end_byte, name):
            return
        from .suggest import closest  # (an unknown field: rare)

        suggestion = closest(name, [f.name for f in t.fields])
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        body.add_once("CL017", f"{name} {what}", field.start_byte, field.end_byte,
                      f"no member named '{name}' in '{what}'{hint}")


def _wrong_operator(body: Body, op: Node, t: Type, arrow: bool) -> bool:
    """`p.x` on a pointer to a struct, `s->x` on a struct (CL024), with the other operator as
    the fix; True when reported."""
    if arrow:
        record = body.fm.typer.complete(t)
        if not isinstance(record, Struct) or not known(record):
            return False
        message = f"member reference type '{struct_name(body, record)}' is not a pointer; did you mean to use '.'?"
    else:
        if not isinstance(t, Pointer):
            return False
        record = body.fm.typer.complete(t.pointee)
        if not isinstance(record, Struct) or not known(record):
            return False
        space = f"{t.space.value} " if t.explicit else ""
        message = (f"member reference type '{space}{struct_name(body, record)} *' is a pointer; "
                   f"did you mean to use '->'?")
    body.add("CL024", op.start_byte, op.end_byte, message,
             fix=FixPlan(f"use '{'.' if arrow else '->'}'", (Edit(op.start_byte, op.end_byte, "." if arrow else "->"),)))
    return True


def _swizzle(body: Body, field: Node, t: Vector, name: str) -> None:
    if swizzle_indices(name, t.n) is not None:
        return
    if name in ("lo", "hi", "even", "odd"):
        return
    low = name.lower()
    if len(name) > 1 and low[0] == "s" and all(c in _HEX for c in low[1:]):
        beyond = True
    elif all(c in _XYZW for c in name):
        beyond = True
    else:
        return  # rgba (3.0), mixed sets, other letters: clang's rules differ by version
    if beyond:
        body.add("CL016", field.start_byte, field.end_byte, f"vector component access '.{name}' exceeds type "
                 f"'{t.name}' ({t.n} components)")


def struct_name(body: Body, t: Struct) -> str:
    """A struct as the file names it: its tag, else the typedef that names it."""
    if t.name:
        return t.render()
    for name, td in body.model.index.typedefs.items():
        if isinstance(td.type, Struct) and td.type.key == t.key:
            return name
    return t.render()
