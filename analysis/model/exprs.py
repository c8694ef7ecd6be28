"""Expression types: every expression node gets a `Type`, memoised by node id.

Pointer types keep their address space through `&`, `*`, indexing, member access, casts,
ternaries (common address space, 6.7) and pointer arithmetic; `space_of(lvalue)` says where an
object designated by an expression lives, which is what `&e` points into.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Protocol

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.target import Target

from .decls import MacroExpander, Typedef, TypeReader, text
from .overloads import parse_catalogue_type, resolve_builtin
from .scopes import Symbol, SymbolKind
from .types import (
    INT,
    PTRDIFF_T,
    SIZE_T,
    VOID,
    AddressSpace,
    Array,
    Enum_,
    Function,
    Pointer,
    Scalar,
    Struct,
    Type,
    Unknown,
    Vector,
    common_address_space,
    default_pointee_space,
    promote,
    swizzle_type,
    usual_arithmetic,
    with_space,
)



# What the typer reads of the models that own it (symbols.py builds them and imports this
# module; described here so that the dependency runs one way).
class _IndexReads(Protocol):
    typedefs: dict[str, Typedef]
    tags: dict[str, Type]


class ModelReads(Protocol):
    """symbols.SemanticModel, as the typer reads it."""

    source: bytes
    target: Target
    index: _IndexReads
    expander: MacroExpander | None
    strict_generic: bool

    def resolve(self, node: Node) -> Symbol | None: ...


class FunctionReads(Protocol):
    """symbols.FunctionModel, as the typer reads it."""

    model: ModelReads
    name: str
    refs: dict[int, Symbol]
    _tags: Mapping[str, Type]

    def _reader(self) -> TypeReader: ...

_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_SHIFT = frozenset({"<<", ">>"})
_FLOAT = re.compile(r"^(?:\d+\.\d*|\.\d+|\d+\.?\d*[eE][+-]?\d+|\d+\.\d*[eE][+-]?\d+)[fFhHlL]?$")
_SIGNED_FOR_SIZE = {"char": "char", "uchar": "char", "short": "short", "ushort": "short", "half": "short",
                    "int": "int", "uint": "int", "float": "int", "long": "long", "ulong": "long",
                    "double": "long"}


def literal_type(spelling: str) -> Type:
    """Type of a number literal: `1.0` double, `1.0f` float, `1.0h` half, `1u` uint, `1ul` ulong."""
    s = spelling.strip().replace("'", "")
    low = s.lower()
    is_hex = low.startswith("0x")
    if (not is_hex and _FLOAT.match(s)) or (is_hex and "p" in low):
        if low.endswith("f"):
            return Scalar("float")
        if low.endswith("h"):
            return Scalar("half")
        return Scalar("double")
    suffix = re.search(r"[uUlL]*$", s).group(0).lower()  # type: ignore[union-attr]
    digits = s[: len(s) - len(suffix)]
    try:
        value = int(digits, 0) if not (digits.startswith("0") and digits.isdigit()) else int(digits, 8)
    except ValueError:
        value = 0
    unsigned = "u" in suffix
    if "l" in suffix or value > 0xFFFFFFFF or (value > 0x7FFFFFFF and not unsigned and not is_hex):
        return Scalar("ulong" if unsigned else "long")
    if unsigned or value > 0x7FFFFFFF:
        return Scalar("uint")
    return INT


def relational_result(t: Type) -> Type:
    """Comparisons give int for scalars and a signed integer vector of the same layout for
    vectors (6.5.3: float4 == float4 is int4)."""
    if isinstance(t, Vector):
        return Vector(Scalar(_SIGNED_FOR_SIZE.get(t.elem.name, "int")), t.n)
    return INT


class ExprTyper:
    def __init__(self, fm: FunctionReads | None, model: ModelReads | None = None) -> None:
        self.fm = fm
        self.model: ModelReads = fm.model if fm is not None else model  # type: ignore[assignment]
        self.source = self.model.source
        self.target = self.model.target
        self._memo: dict[int, Type] = {}

    def _reader(self) -> TypeReader:
        if self.fm is not None:
            return self.fm._reader()
        idx = self.model.index
        return TypeReader(self.source, self.target, idx.typedefs, idx.tags, self.model.expander,
                          self.model.strict_generic)

    def symbol(self, node: Node) -> Symbol | None:
        if self.fm is not None and node.id in self.fm.refs:
            return self.fm.refs[node.id]
        return self.model.resolve(node)

    # -- types ----------------------------------------------------------------------

    def type_of(self, node: Node) -> Type:
        got = self._memo.get(node.id)
        if got is None:
            try:
                got = self._compute(node)
            except RecursionError:  # absurdly deep expressions: give up on this one, not the file
                got = Unknown("...")
            self._memo[node.id] = got
        return got

    def _compute(self, node: Node) -> Type:
        k = node.type
        f = node.child_by_field_name
        if k == "parenthesized_expression":
            inner = node.named_children
            return self.type_of(inner[-1]) if inner else Unknown()
        if k == "identifier":
            return self._identifier(node)
        if k == "number_literal":
            return literal_type(text(self.source, node))
        if k == "char_literal":
            return INT  # C99: an integer character constant has type int
        if k in ("string_literal", "concatenated_string"):
            return self._string(node)
        if k in ("true", "false"):
            return Scalar("bool")
        if k == "null":
            return Pointer(VOID, default_pointee_space(self.target), False)
        if k == "pointer_expression":
            return self._pointer_expr(node)
        if k == "subscript_expression":
            return self._element(self.type_of(f("argument")), f("argument"))
        if k == "field_expression":
            return self._field(node)
        if k in ("cast_expression", "vector_literal", "compound_literal_expression"):
            t = f("type")
            return self._reader().type_name(t) if t is not None else Unknown()
        if k == "conditional_expression":
            return self._conditional(node)
        if k == "assignment_expression":
            return self._decay_fn(self.type_of(f("left"))) if f("left") is not None else Unknown()
        if k == "binary_expression":
            return self._binary(node)
        if k == "unary_expression":
            arg = self.type_of(f("argument"))
            op = text(self.source, f("operator"))
            if op == "!":
                return relational_result(arg)
            return promote(arg) if isinstance(arg, Scalar) else arg
        if k == "update_expression":
            return self.type_of(f("argument"))
        if k in ("sizeof_expression", "alignof_expression", "offsetof_expression"):
            return SIZE_T
        if k == "comma_expression":
            return self.type_of(f("right"))
        if k == "call_expression":
            return self._call(node)
        if k == "expression_statement":
            inner = node.named_children
            return self.type_of(inner[0]) if inner else VOID
        return Unknown(text(self.source, node)[:40] if node.type != "ERROR" else "?")

    def _identifier(self, node: Node) -> Type:
        sym = self.symbol(node)
        name = text(self.source, node)
        if sym is None:
            if name == "__func__" and self.fm is not None and self.fm.name:
                # C99 6.4.2.2, in OpenCL C a string in the constant space (6.7: all string
                # literals are): `char *p = __func__;` changes address space.
                return Array(Scalar("char"), len(self.fm.name) + 1, AddressSpace.CONSTANT)
            return Unknown(name)
        if sym.kind is SymbolKind.BUILTIN:
            c = catalogue().constant(name)
            return parse_catalogue_type(c.type) if c is not None else Unknown(name)
        return sym.type

    def _string(self, node: Node) -> Type:
        # 6.7: all string literal storage is in the constant address space
        size = 1
        parts = [node] if node.type == "string_literal" else [c for c in node.named_children
                                                              if c.type == "string_literal"]
        for p in parts:
            for c in p.named_children:
                if c.type == "string_content":
                    size += len(self.source[c.start_byte:c.end_byte])
                elif c.type == "escape_sequence":
                    size += 1
        return Array(Scalar("char"), size, AddressSpace.CONSTANT)

    @staticmethod
    def _decay_fn(t: Type) -> Type:
        return t

    def _pointer_expr(self, node: Node) -> Type:
        arg = node.child_by_field_name("argument")
        op = text(self.source, node.child_by_field_name("operator"))
        if arg is None:
            return Unknown()
        t = self.type_of(arg)
        if op == "&":
            if isinstance(t, Function):
                return Pointer(t, AddressSpace.PRIVATE, False)
            space = self.space_of(arg)
            return Pointer(t, space or AddressSpace.PRIVATE, space is not None)
        return self._element(t, arg)

    def _element(self, t: Type, base: Node | None) -> Type:
        """`*p` / `p[i]`: the pointed-to or element type (a vector's element for `v[i]`)."""
        if isinstance(t, Pointer):
            return with_space(t.pointee, t.space) if isinstance(t.pointee, Array) else t.pointee
        if isinstance(t, Array):
            return t.elem
        if isinstance(t, Vector):
            return t.elem
        if isinstance(t, Unknown):
            return Unknown(f"*{t.text}")
        return Unknown("?")

    def _struct_of(self, node: Node) -> tuple[Type, bool]:
        arg = node.child_by_field_name("argument")
        op = node.child_by_field_name("operator")
        t = self.type_of(arg) if arg is not None else Unknown()
        arrow = op is not None and text(self.source, op) == "->"
        if arrow:
            t = t.pointee if isinstance(t, Pointer) else (t.elem if isinstance(t, Array) else Unknown())
        return self.complete(t), arrow

    def complete(self, t: Type) -> Type:
        """A struct seen through a self-reference (`struct node *next`) has no fields; find them."""
        if isinstance(t, Struct) and t.fields is None and t.name:
            tags = self.fm._tags if self.fm is not None else self.model.index.tags
            found = tags.get(t.name)
            if isinstance(found, Struct) and found.fields is not None:
                return found
        return t

    def _field(self, node: Node) -> Type:
        t, _ = self._struct_of(node)
        fnode = node.child_by_field_name("field")
        name = text(self.source, fnode) if fnode is not None else ""
        if isinstance(t, Vector):
            return swizzle_type(t, name)
        if isinstance(t, Struct):
            fld = t.field(name)
            if fld is None:
                return Unknown(f"{name}")
            space = self.space_of(node)
            return with_space(fld.type, space) if space is not None else fld.type
        return Unknown(name)

    def _conditional(self, node: Node) -> Type:
        a_node, b_node = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        if a_node is None or b_node is None:
            return self.type_of(a_node or b_node) if (a_node or b_node) else Unknown()
        a, b = self._decay(self.type_of(a_node)), self._decay(self.type_of(b_node))
        if isinstance(a, Pointer) and isinstance(b, Pointer):
            space = common_address_space(a.space, b.space)
            if space is None:
                return Unknown(f"{a.render()} : {b.render()}")
            pointee = a.pointee if not (isinstance(a.pointee, Scalar) and a.pointee.is_void) else b.pointee
            return Pointer(pointee, space, a.explicit and b.explicit, a.qualifiers | b.qualifiers)
        if isinstance(a, Pointer):
            return a
        if isinstance(b, Pointer):
            return b
        if a.is_arithmetic and b.is_arithmetic:
            return usual_arithmetic(a, b)
        return a if not isinstance(a, Unknown) else b

    @staticmethod
    def _decay(t: Type) -> Type:
        return t.decay() if isinstance(t, Array) else t

    def _binary(self, node: Node) -> Type:
        op = text(self.source, node.child_by_field_name("operator"))
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        a = self._decay(self.type_of(left)) if left is not None else Unknown()
        b = self._decay(self.type_of(right)) if right is not None else Unknown()
        if op in _COMPARE:
            return relational_result(usual_arithmetic(a, b) if a.is_arithmetic and b.is_arithmetic else a)
        if op in _SHIFT:
            return promote(a) if isinstance(a, Scalar) else a
        if isinstance(a, Pointer) and isinstance(b, Pointer) and op == "-":
            return PTRDIFF_T  # pointer difference
        if isinstance(a, Pointer) and op in ("+", "-"):
            return a  # pointer arithmetic keeps the pointer type and its space
        if isinstance(b, Pointer) and op == "+":
            return b
        if isinstance(a, Enum_):
            a = INT
        if isinstance(b, Enum_):
            b = INT
        if a.is_arithmetic and b.is_arithmetic:
            return usual_arithmetic(a, b)
        return a if not isinstance(a, Unknown) else b

    def _call(self, node: Node) -> Type:
        fn = node.child_by_field_name("function")
        args_node = node.child_by_field_name("arguments")
        args = [self.type_of(a) for a in args_node.named_children if a.type != "comment"] if args_node else []
        if fn is None:
            return Unknown()
        if fn.type == "identifier":
            sym = self.symbol(fn)
            name = text(self.source, fn)
            if sym is not None and sym.kind is not SymbolKind.BUILTIN:
                t = sym.type
                if isinstance(t, Pointer):
                    t = t.pointee
                return t.ret if isinstance(t, Function) else Unknown(f"{name}(...)")
            res = resolve_builtin(name, args, self.target)
            if res is not None:
                return res.returns
            return Unknown(f"{name}(...)")
        t = self.type_of(fn)
        if isinstance(t, Pointer):
            t = t.pointee
        return t.ret if isinstance(t, Function) else Unknown()

    # -- where objects live -----------------------------------------------------------

    def space_of(self, node: Node | None) -> AddressSpace | None:
        """The address space of the object an lvalue expression designates, None if not an lvalue
        or unknown."""
        if node is None:
            return None
        k = node.type
        if k == "parenthesized_expression":
            inner = node.named_children
            return self.space_of(inner[-1]) if inner else None
        if k == "identifier":
            sym = self.symbol(node)
            return sym.space if sym is not None else None
        if k in ("string_literal", "concatenated_string"):
            return AddressSpace.CONSTANT
        if k == "compound_literal_expression":
            return AddressSpace.PRIVATE
        if k == "pointer_expression":
            op = text(self.source, node.child_by_field_name("operator"))
            if op == "*":
                return self._pointee_space(node.child_by_field_name("argument"))
            return None
        if k == "subscript_expression":
            arg = node.child_by_field_name("argument")
            t = self.type_of(arg) if arg is not None else Unknown()
            if isinstance(t, Vector):
                return self.space_of(arg)
            return self._pointee_space(arg)
        if k == "field_expression":
            arg = node.child_by_field_name("argument")
            op = node.child_by_field_name("operator")
            if op is not None and text(self.source, op) == "->":
                return self._pointee_space(arg)
            return self.space_of(arg)
        if k == "assignment_expression" or k == "update_expression":
            return None
        return None

    def _pointee_space(self, node: Node | None) -> AddressSpace | None:
        if node is None:
            return None
        t = self.type_of(node)
        if isinstance(t, Pointer):
            return t.space
        if isinstance(t, Array):
            return t.space
        return None


__all__ = ["ExprTyper", "literal_type", "relational_result"]
_ = (Symbol, SIZE_T)
