"""Writes to `const` objects (CL021), and values of an incompatible kind in initialisations,
assignments, arguments and returns (CL022): a pointer where an integer is expected or the
reverse, and vectors of another element type or width (OpenCL C never converts those
implicitly, 6.4.1, nor by an explicit cast, 6.2.2). Both sides must be certain; pointer-to-pointer mismatches are the address
space rules' (CL1xx), writes to `__constant` are CL112's.
"""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.model import SymbolKind
from cllint.analysis.model.types import AddressSpace, Array, Function, Pointer, Scalar, Struct, Type, Vector

from .context import Body, known

_WRITES = frozenset({"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="})


def _strip(n: Node | None) -> Node | None:
    while n is not None and n.type == "parenthesized_expression":
        inner = [c for c in n.named_children if c.type != "comment"]
        n = inner[0] if len(inner) == 1 else None
    return n


# -- const ---------------------------------------------------------------------------------


def check_write(body: Body, expr: Node, target: Node | None) -> None:
    """`target` is written by `expr` (an assignment or `++`/`--`)."""
    target = _strip(target)
    if target is None or expr.has_error:
        return
    fm = body.fm
    if target.type == "identifier":
        sym = fm.refs.get(target.id)
        if sym is None or sym.kind not in (SymbolKind.LOCAL, SymbolKind.PARAMETER, SymbolKind.GLOBAL):
            return
        # The model's `cv` of a pointer variable merges `const T *p` (the pointee) with
        # `T *const p` (the variable): judge only where the pointee is not const.
        if isinstance(sym.type, Pointer) and "const" in sym.type.qualifiers:
            return
        if "const" in sym.cv and not isinstance(sym.type, Array) and not body.facts.is_macro(sym.name):
            body.add("CL021", target.start_byte, target.end_byte,
                     f"cannot assign to variable '{sym.name}' with const-qualified type "
                     f"'{_const(sym.type)}'", body.declared_here(sym.node, sym.name))
        return
    if target.type == "field_expression":
        _check_member_write(body, target)
        return
    if target.type in ("subscript_expression", "pointer_expression"):
        if target.type == "pointer_expression" and body.text(target.child_by_field_name("operator") or target) != "*":
            return
        base = _strip(target.child_by_field_name("argument"))
        if base is None or not body.certain(base):
            return
        t = fm.type_of(base)
        if not isinstance(t, Pointer) or "const" not in t.qualifiers or t.space is AddressSpace.CONSTANT:
            return
        if isinstance(t.pointee, (Pointer, Array)):
            return
        name = body.text(base)
        pointee = t.render().rstrip("*").strip()
        notes = ()
        if base.type == "identifier" and (sym := fm.refs.get(base.id)) is not None:
            notes = body.declared_here(sym.node, sym.name)
        body.add("CL021", target.start_byte, target.end_byte,
                 f"cannot assign to '{body.text(target)}': '{name}' points to const-qualified type '{pointee}'",
                 notes)


def _check_member_write(body: Body, target: Node) -> None:
    """`p->x = v` with `p` pointing to a const struct, or `s.x = v` with `s` a const struct
    variable (CL021). Writes to `__constant` are CL112's; vector components are left alone."""
    op, base = target.child_by_field_name("operator"), _strip(target.child_by_field_name("argument"))
    if op is None or base is None or target.has_error or not body.certain(base):
        return
    fm = body.fm
    t = fm.type_of(base)
    sym = fm.refs.get(base.id) if base.type == "identifier" else None
    notes = body.declared_here(sym.node, sym.name) if sym is not None else ()
    written = body.text(target)
    if body.text(op) == "->":
        if not isinstance(t, Pointer) or "const" not in t.qualifiers or t.space is AddressSpace.CONSTANT:
            return
        record = fm.typer.complete(t.pointee)
        if not isinstance(record, Struct):
            return
        space = f"{t.space.value} " if t.explicit else ""
        from .members import struct_name  # (a report: rare)

        body.add("CL021", target.start_byte, target.end_byte, f"cannot assign to '{written}': "
                 f"'{body.text(base)}' points to const-qualified type 'const {space}{struct_name(body, record)}'",
                 notes)
    elif sym is not None and sym.kind in (SymbolKind.LOCAL, SymbolKind.PARAMETER) and "const" in sym.cv \
            and isinstance(record := fm.typer.complete(sym.type), Struct) and not body.facts.is_macro(sym.name):
        from .members import struct_name

        body.add("CL021", target.start_byte, target.end_byte, f"cannot assign to '{written}': "
                 f"'{sym.name}' has const-qualified type 'const {struct_name(body, record)}'", notes)


# -- kinds of value ----------------------------------------------------------------------------


def _mismatch(to: Type, value: Node, body: Body) -> tuple[str, Type] | None:
    """What is wrong with converting `value` to `to`: (clang's name for the conversion, or ""
    for incompatible types, and the value's type). Only where `value` is `certain`: asked
    last, as most conversions are fine whatever the value holds (the type is memoised, and
    `certain` walks the whole expression)."""
    if not known(to):
        return None
    found = _kind_mismatch(to, value, body)
    return found if found is not None and body.certain(value) else None


def _kind_mismatch(to: Type, value: Node, body: Body) -> tuple[str, Type] | None:
    got = body.fm.type_of(value)
    if isinstance(got, Array):
        got = got.decay()
    if isinstance(got, Function):
        return None
    if isinstance(to, Scalar) and to.is_integer and to.name != "bool" and isinstance(got, Pointer):
        return "incompatible pointer to integer conversion", got
    if isinstance(to, Pointer) and isinstance(got, Scalar) and got.is_integer and not _null_constant(body, value):
        return "incompatible integer to pointer conversion", got
    if isinstance(to, Vector) and isinstance(got, Vector) and to != got:
        return "", got
    if isinstance(to, Scalar) and not to.is_void and isinstance(got, Vector):
        return "", got
    if isinstance(to, Vector) and isinstance(got, Pointer):
        return "", got
    return None


def _null_constant(body: Body, value: Node) -> bool:
    v = _strip(value)
    return v is not None and v.type == "number_literal" and body.text(v).rstrip("uUlL") in ("0", "0x0", "00")


def _const(t: Type) -> str:
    return f"{t.render()} const" if isinstance(t, Pointer) else f"const {t.render()}"


def _render(t: Type) -> str:
    return t.render()


def check_init(body: Body, decl: Node) -> None:
    """`T x = value;` for each init_declarator of a local declaration."""
    name_node = decl.child_by_field_name("declarator")
    value = decl.child_by_field_name("value")
    if name_node is None or value is None or value.type == "initializer_list" or decl.has_error:
        return
    ident = name_node if name_node.type == "identifier" else None
    if ident is None:
        for c in _walk(name_node):
            if c.type == "identifier":
                ident = c
                break
    sym = body.fm.refs.get(ident.id) if ident is not None else None
    if sym is None or sym.kind is not SymbolKind.LOCAL:
        return
    to = sym.type
    if isinstance(to, Array):
        return
    found = _mismatch(to, value, body)
    if found is not None:
        what, got = found
        message = f"{what} initializing '{_render(to)}' with an expression of type '{_render(got)}'" if what \
            else f"initializing '{_render(to)}' with an expression of incompatible type '{_render(got)}'"
        body.add("CL022", ident.start_byte, value.end_byte, message)


def check_assignment(body: Body, expr: Node) -> None:
    op = expr.child_by_field_name("operator")
    left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
    if op is None or left is None or right is None or body.text(op) != "=" or expr.has_error:
        return
    to = body.fm.type_of(left)
    found = _mismatch(to, right, body)
    if found is not None and body.certain(left):  # the types first: most assignments are fine
        what, got = found
        message = f"{what} assigning to '{_render(to)}' from '{_render(got)}'" if what \
            else f"assigning to '{_render(to)}' from incompatible type '{_render(got)}'"
        body.add("CL022", expr.start_byte, expr.end_byte, message)


def check_arguments(body: Body, call: Node, args: list[Node]) -> None:
    fn = call.child_by_field_name("function")
    sym = body.fm.refs.get(fn.id) if fn is not None and fn.type == "identifier" else None
    if sym is None or sym.kind is not SymbolKind.FUNCTION or not isinstance(sym.type, Function):
        return
    params = sym.type.params
    if len(params) != len(args) or body.facts.is_macro(sym.name) or sym.name in body.facts.overloaded:
        return  # (an overloadable name's call picks among its overloads, not this one)
    for p, a in zip(params, args):
        found = _mismatch(p, a, body)
        if found is not None:
            what, got = found
            body.add("CL022", a.start_byte, a.end_byte,
                     f"{what or 'incompatible type'} passing '{_render(got)}' to parameter of type '{_render(p)}'",
                     body.declared_here(sym.node, sym.name))


def check_return_value(body: Body, ret: Node) -> None:
    values = [c for c in ret.named_children if c.type != "comment"]
    rt = body.fm.return_type
    if not values or not known(rt) or (isinstance(rt, Scalar) and rt.is_void):
        return
    found = _mismatch(rt, values[0], body)
    if found is not None:
        what, got = found
        body.add("CL022", values[0].start_byte, values[0].end_byte,
                 f"{what + ' ' if what else ''}returning '{_render(got)}' from a function with "
                 f"{'' if what else 'incompatible '}result type '{_render(rt)}'")


def writes(body: Body, expr: Node) -> Node | None:
    """The object an assignment or increment writes."""
    if expr.type == "assignment_expression":
        op = expr.child_by_field_name("operator")
        return expr.child_by_field_name("left") if op is not None and body.text(op) in _WRITES else None
    if expr.type == "update_expression":
        return expr.child_by_field_name("argument")
    return None


def _walk(n: Node):  # noqa: ANN202
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(reversed(x.named_children))


# -- explicit casts --------------------------------------------------------------------------


def check_vector_cast(body: Body, expr: Node) -> None:
    """`(float4)(v)` or `(int4)f` with `v`, `f` vectors of another type (CL022): OpenCL C has no
    explicit casts between vector types (spec 6.2.2); one value becomes a vector only as a
    scalar filling every component, and `convert_<type>`, `as_<type>` or a swizzle say what
    was meant."""
    if expr.type == "vector_literal":
        elements = [c for c in expr.children_by_field_name("element") if c.type != "comment"]
        value = elements[0] if len(elements) == 1 else None
        spelled = expr.child_by_field_name("type")
    else:  # a cast_expression
        value, spelled = expr.child_by_field_name("value"), expr.child_by_field_name("type")
    if value is None or spelled is None or expr.has_error or not body.certain(value):
        return
    t, vt = body.fm.type_of(expr), body.fm.type_of(value)
    if not isinstance(t, Vector) or not isinstance(vt, Vector) or not known(t) or not known(vt):
        return
    if (t.elem.name, t.n) == (vt.elem.name, vt.n):
        return
    body.add("CL022", expr.start_byte, expr.end_byte,
             f"invalid conversion between vector type '{t.name}' ({t.n} x '{t.elem.name}') and "
             f"'{vt.name}' ({vt.n} x '{vt.elem.name}'): OpenCL C has no casts between vector types")
