"""Whether a pointer type read off real (macro-heavy) code can be trusted.

A declaration whose qualifiers or type come from a macro we could not expand, or that sits in
broken syntax, may hide an address space; a pointer read from it gets the inferred default,
which would be a guess. The CL1xx rules report nothing about such pointers.
"""

from __future__ import annotations


from tree_sitter import Node

from cllint.analysis.model import SemanticModel, SymbolKind
from cllint.analysis.model.types import Pointer, Type, Unknown, builtin_named
from cllint.analysis.model.walk import ancestor_of_kinds
from cllint.analysis.syntax import macro_named
from cllint.analysis.lazy_re import lazy

_MACRO_KINDS = frozenset({"macro_modifier", "macro_declarator", "macro_type_specifier"})
_DECL_KINDS = frozenset({"parameter_declaration", "declaration", "field_declaration", "function_definition",
                         "type_definition", "type_descriptor"})
_SKIP = frozenset({"compound_statement", "initializer_list", "parameter_list"})
_TAG_KINDS = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})


def _innermost(t: Type) -> Type:
    while isinstance(t, Pointer):
        t = t.pointee
    return t


class Certainty:
    def __init__(self, model: SemanticModel) -> None:
        self.model = model
        self.source = model.source
        self._decls: dict[int, bool] = {}

    # -- types ----------------------------------------------------------------------------

    @staticmethod
    def type_certain(t: Type) -> bool:
        """An inferred pointer to an unknown type may be a macro that carried the space."""
        level = t
        while isinstance(level, Pointer):
            if not level.explicit and isinstance(_innermost(level), Unknown):
                return False
            level = level.pointee
        return True

    # -- declarations ---------------------------------------------------------------------

    def decl_certain(self, node: Node | None) -> bool:
        if node is None:
            return False
        got = self._decls.get(node.id)
        if got is None:
            got = self._scan(node)
            self._decls[node.id] = got
        return got

    def _scan(self, node: Node) -> bool:
        expander = self.model.expander
        typedefs = self.model.index.typedefs
        stack = [node]
        while stack:
            n = stack.pop()
            k = n.type
            if k == "ERROR" or n.is_missing:
                return False
            if k in _MACRO_KINDS:
                name = n.child_by_field_name("name") or n.child_by_field_name("macro") or n
                if name.type in _MACRO_KINDS:
                    name = name.child_by_field_name("name") or name
                word = self._text(name).split("(")[0].strip()
                if not self._expands(word, n.start_byte, expander):
                    return False
            elif k == "function_declarator" and macro_named(n) is not None:
                # `KERNEL(name)(params)`: the macro writes the head (`__kernel void name`, a
                # JIT definition of the host's): unknown, so is what kind of function it is
                made = macro_named(n)
                word = self._text(made.child_by_field_name("declarator") or made).strip()
                if not self._expands(word, n.start_byte, expander):
                    return False
            elif k == "type_identifier":
                word = self._text(n)
                if self._tag_name(n, word):
                    pass  # `struct S`: a tag, not a type name a macro could stand for
                elif word not in typedefs and builtin_named(word) is None and \
                        not self._expands(word, n.start_byte, expander) and not self._local_typedef(n):
                    return False
            if k in _SKIP and n is not node:
                continue
            stack.extend(c for i, c in enumerate(n.children) if n.field_name_for_child(i) not in ("value", "body"))
        return True

    def _tag_name(self, n: Node, word: str) -> bool:
        """The name of a struct, union or enum the file defines (or this specifier defines)."""
        p = n.parent
        if p is None or p.type not in _TAG_KINDS or p.child_by_field_name("name") != n:
            return False
        return p.child_by_field_name("body") is not None or word in self.model.index.tags or \
            self._local_typedef(n)

    def _local_typedef(self, n: Node) -> bool:
        fm = self.model.enclosing_function(n)
        return fm is not None and n.id in fm.refs

    @staticmethod
    def _expands(word: str, offset: int, expander) -> bool:  # noqa: ANN001
        if expander is None:
            return False
        try:
            return bool(expander(word, offset))
        except Exception:  # noqa: BLE001
            return False

    def _text(self, n: Node) -> str:
        return self.source[n.start_byte:n.end_byte].decode("utf-8", "replace")

    # -- expressions ----------------------------------------------------------------------

    def declaration_of(self, node: Node | None) -> Node | None:
        """The enclosing declaration-like node (parameter, declaration, field...) of a name."""
        return ancestor_of_kinds(node, _DECL_KINDS, 12)

    def expr_certain(self, node: Node | None, depth: int = 0) -> bool:
        if node is None or depth > 40:
            return False
        k = node.type
        f = node.child_by_field_name
        if k == "parenthesized_expression":
            inner = node.named_children
            return bool(inner) and self.expr_certain(inner[-1], depth + 1)
        if k == "identifier":
            sym = self.model.resolve(node)
            if sym is None:  # only the predefined `__func__` has a type without a declaration
                return self.model.source[node.start_byte:node.end_byte] == b"__func__"
            if sym.kind is SymbolKind.BUILTIN:
                return True
            if sym.kind is SymbolKind.PARAMETER or sym.kind is SymbolKind.LOCAL or sym.kind is SymbolKind.GLOBAL:
                return self.decl_certain(self.declaration_of(sym.node))
            return False
        if k == "field_expression":
            sym = self.model.resolve(f("field")) if f("field") is not None else None
            return sym is not None and self.expr_certain(f("argument"), depth + 1) and \
                self.decl_certain(self.declaration_of(sym.node))
        if k in ("subscript_expression", "pointer_expression", "update_expression"):
            return self.expr_certain(f("argument"), depth + 1)
        if k == "cast_expression":
            # A cast the parser could not read whole (`(__attribute__((...)) int *)p`) has an
            # ERROR child beside its type: the type read is not the one written.
            return not node.has_error and self.decl_certain(f("type"))
        if k == "call_expression":
            callee = f("function")
            if callee is None or callee.type != "identifier":
                return False
            sym = self.model.resolve(callee)
            if sym is None:
                return False
            if sym.kind is SymbolKind.BUILTIN:
                return True
            info = self.model.index.functions.get(sym.name)
            if info is None:
                return False
            item = info.definition if info.definition is not None else (info.prototypes[0] if info.prototypes
                                                                        else None)
            return self.decl_certain(item)
        if k == "conditional_expression":
            return self.expr_certain(f("consequence"), depth + 1) and \
                self.expr_certain(f("alternative"), depth + 1)
        if k == "binary_expression":
            return self.expr_certain(f("left"), depth + 1) and self.expr_certain(f("right"), depth + 1)
        if k == "assignment_expression":
            return self.expr_certain(f("left"), depth + 1)
        if k in ("string_literal", "concatenated_string", "number_literal", "null", "true", "false",
                 "char_literal", "sizeof_expression"):
            return True
        return False


_NAMED_SPACE = lazy(rb"\b(?:__)?(?:global|local|constant|private)\b|opencl_(?:global|local|constant|private)")


def is_null_constant(source: bytes, node: Node | None) -> bool:
    """`0`, `NULL`, `(void *)0` and the same in parentheses. A cast to a pointer into a named
    space (`(global void *)0`) is a pointer of that space, not a null constant that converts
    to any space (clang reports `constant int *p = (global void *)0;`); generic stays null."""
    n = node
    while n is not None and n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[-1]
    if n is None:
        return False
    if n.type == "null":
        return True
    word = source[n.start_byte:n.end_byte].decode("utf-8", "replace").strip()
    if n.type == "number_literal":
        return word.rstrip("uUlL") in ("0", "0x0", "00")
    if n.type == "identifier":
        return word == "NULL"
    if n.type == "cast_expression":
        t = n.child_by_field_name("type")
        if t is not None and _NAMED_SPACE.search(source, t.start_byte, t.end_byte):
            return False
        return is_null_constant(source, n.child_by_field_name("value"))
    return False


__all__ = ["Certainty", "is_null_constant"]
