"""Declaration-level address-space checks (6.7 usage and initialisation, 6.11 restrictions).

Kernel signatures, qualified return types and parameters, more than one space on a type,
where `__local`, `__constant`, `__global` and program-scope variables may be declared, and
image/sampler types.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.model import FunctionInfo, Symbol
from cllint.analysis.model.scopes import SymbolKind
from cllint.analysis.model.decls import Specifiers, TypeReader
from cllint.analysis.model.types import (
    AddressSpace,
    Array,
    Function,
    Opaque,
    Pointer,
    Scalar,
    Struct,
    Type,
    has_generic,
    has_program_scope_globals,
)

from cllint.analysis.model.walk import nodes_of_kinds

from .checks import Checks, in_focus
from .conversions import render
from .findings import Edit, Finding, FixPlan

G, C, L, P = AddressSpace.GLOBAL, AddressSpace.CONSTANT, AddressSpace.LOCAL, AddressSpace.PRIVATE
_KERNEL_SPACES = (G, C, L)
_BAD_SCALARS = frozenset({"bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"})
_CONTAINERS = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                         "preproc_elifdef", "linkage_specification", "declaration_list"})


def _is_image(t: Type) -> bool:
    return isinstance(t, Opaque) and t.name.startswith("image")


def _is_sampler(t: Type) -> bool:
    return isinstance(t, Opaque) and t.name == "sampler_t"


def _struct_has(t: Type, pred, seen: frozenset[int] = frozenset()) -> Type | None:  # noqa: ANN001
    """The first field type (recursively) satisfying `pred`."""
    if not isinstance(t, Struct) or t.key in seen:
        return None
    for f in t.fields or ():
        ft = f.type
        while isinstance(ft, Array):
            ft = ft.elem
        if pred(ft):
            return ft
        inner = _struct_has(ft, pred, seen | {t.key})
        if inner is not None:
            return inner
    return None


class DeclarationChecks(Checks):
    # -- entry ----------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        # With a focus, only what lies in it: the rest comes from the incremental cache.
        focus = self.focus
        for info in self.m.index.functions.values():
            if info.is_kernel and in_focus(focus, info.definition or (info.prototypes[0] if info.prototypes
                                                                       else info.symbol.decl)):
                self._kernel(info)
        for item in self._items(self.m.tree.root_node):
            if item.type in ("declaration", "function_definition") and in_focus(focus, item):
                self._function_declarators(item)
        for sym in self.m.index.globals.values():
            if sym.decl is not None and in_focus(focus, sym.decl):
                self._program_scope(sym)
        for definition in self.m.index.definitions:
            if not in_focus(self.focus, definition):
                continue  # its model is not even built: that is most of an incremental run's saving
            fm = self.m.function_at_node(definition)
            for sym in fm.locals:
                self._local(sym, fm.is_kernel)
        self._multiple_spaces(self.m.tree.root_node)
        self._fields()
        return self.out

    def _items(self, root: Node) -> Iterator[Node]:
        stack = [root]
        while stack:
            n = stack.pop()
            if n.type in _CONTAINERS:
                stack.extend(reversed(n.children))
            else:
                yield n

    # -- kernels --------------------------------------------------------------------------

    def _kernel(self, info: FunctionInfo) -> None:
        item = info.definition if info.definition is not None else (info.prototypes[0] if info.prototypes
                                                                    else None)
        if item is None or not self.cert.decl_certain(_signature(item)):
            return
        ret = info.return_type
        if not (isinstance(ret, Scalar) and ret.is_void) and isinstance(ret, (Scalar, Pointer, Struct)):
            tnode = item.child_by_field_name("type")
            if tnode is not None:
                self.add("CL105", tnode, f"kernel '{info.name}' must return 'void', not '{render(ret)}'",
                         fix=FixPlan("Return 'void'", (Edit(tnode.start_byte, tnode.end_byte, "void"),),
                                     safe=False))
        for p in info.params:
            self._kernel_param(p)

    def _kernel_param(self, p: Symbol) -> None:
        decl = self.cert.declaration_of(p.node)
        if decl is None or decl.type != "parameter_declaration" or not self.cert.decl_certain(decl):
            return
        t = p.type
        where = p.node or decl
        if isinstance(t, Pointer):
            if not self.cert.type_certain(t):
                return
            bad_level = t
            while isinstance(bad_level, Pointer) and bad_level.space in _KERNEL_SPACES:
                bad_level = bad_level.pointee
            if isinstance(bad_level, Pointer):
                fix = None
                tnode = decl.child_by_field_name("type")
                if not t.explicit and bad_level is t and tnode is not None:
                    fix = FixPlan("Qualify the pointee with '__global'",
                                  (Edit(tnode.start_byte, tnode.start_byte, "__global "),))
                self.add("CL103", where,
                         f"kernel parameter '{p.name}' of type '{render(t)}' points to "
                         f"'{bad_level.space.spelling}'; "
                         "kernel pointers must point to '__global', '__constant' or '__local'", fix=fix)
                return
            if isinstance(t.pointee, Pointer) and not has_generic(self.target) and \
                    self.target.version.major < 2:
                self.add("CL104", where, f"kernel parameter '{p.name}' of type '{render(t)}' is a pointer to "
                         "a pointer, which needs OpenCL C 2.0")
            return
        if isinstance(t, Scalar) and t.name in _BAD_SCALARS:
            self.add("CL104", where, f"'{t.name}' cannot be used as the type of kernel parameter '{p.name}'")
        elif isinstance(t, Scalar) and t.name == "half" and not self.target.has("cl_khr_fp16"):
            self.add("CL104", where, f"kernel parameter '{p.name}' of type 'half' cannot be passed by value "
                     "without 'cl_khr_fp16'")
        elif isinstance(t, Opaque) and t.name == "event_t":
            self.add("CL104", where, f"'event_t' cannot be used as the type of kernel parameter '{p.name}'")
        elif isinstance(t, Struct) and t.fields is not None:
            bad = _struct_has(t, lambda ft: isinstance(ft, Scalar) and ft.name in _BAD_SCALARS)
            if bad is not None:
                self.add("CL104", where, f"kernel parameter '{p.name}' of type '{render(t)}' contains a field of "
                         f"type '{render(bad)}'")
            elif self.target.version.major < 2 and \
                    _struct_has(t, lambda ft: isinstance(ft, Pointer)) is not None:
                self.add("CL104", where, f"kernel parameter '{p.name}' of type '{render(t)}' contains a pointer; "
                         "struct kernel parameters may not contain pointers before OpenCL C 2.0")

    # -- function declarators: qualified return types and parameters ---------------------

    def _function_declarators(self, item: Node) -> None:
        decls = [item.child_by_field_name("declarator")] if item.type == "function_definition" else \
            [c for i, c in enumerate(item.children) if item.field_name_for_child(i) == "declarator"]
        reader = TypeReader(self.src, self.target, self.m.index.typedefs, self.m.index.tags, self.m.expander)
        try:
            spec = reader.specifiers(item)
        except RecursionError:
            return
        if not self.cert.decl_certain(_signature(item)):
            return
        for d in decls:
            if d is None:
                continue
            got = reader.declare(spec, d)
            if not isinstance(got.type, Function):
                continue
            ret = got.type.ret
            if got.space is not None:
                q = _space_node(self.src, item, got.space) or d
                self.add("CL106", q, f"return type '{render(ret)}' cannot be qualified with address space "
                         f"'{got.space.spelling}'", fix=_remove(q))
            if _is_image(ret) or (isinstance(ret, Pointer) and _is_image(ret.pointee)):
                self.add("CL111", d, f"function cannot return image type '{render(ret)}'")
            fdecl = _function_declarator(d)
            if fdecl is None:
                continue
            plist = fdecl.child_by_field_name("parameters")
            if plist is None:
                continue
            for pnode, p in zip([c for c in plist.named_children if c.type == "parameter_declaration"],
                                reader.parameters(plist), strict=False):
                self._param_decl(pnode, p, spec_of=reader.specifiers(pnode))

    def _param_decl(self, pnode: Node, p, spec_of: Specifiers) -> None:  # noqa: ANN001
        d = pnode.child_by_field_name("declarator")
        top = _unwrap(d)
        is_array = top is not None and top.type in ("array_declarator", "abstract_array_declarator")
        if p.space is not None and p.space is not P and not is_array:
            q = _space_node(self.src, pnode, p.space) or pnode
            self.add("CL106", q, f"parameter{_named(p.name)} of type '{render(p.type)}' may not be qualified "
                     f"with address space '{p.space.spelling}'", fix=_remove(q))
        if isinstance(p.type, Pointer) and not is_array and (_is_image(p.type.pointee) or
                                                             _is_sampler(p.type.pointee)):
            self.add("CL111", pnode, f"pointer to type '{render(p.type.pointee)}' is invalid in OpenCL")
        if is_array and _is_image(spec_of.type):
            self.add("CL111", pnode, f"array of '{render(spec_of.type)}' type is invalid in OpenCL")

    # -- variables ------------------------------------------------------------------------

    def _program_scope(self, sym: Symbol) -> None:
        decl = sym.decl
        if decl is None or sym.node is None or not self.cert.decl_certain(decl):
            return
        t = sym.type
        if self._image_var(sym, t):
            return
        extern = "extern" in sym.storage
        if has_program_scope_globals(self.target):
            if sym.space_explicit and sym.space in (L, P):
                self.add("CL110", sym.node, f"program scope variable '{sym.name}' is in '{sym.space.spelling}'; "
                         "it must reside in '__global' or '__constant'")
        elif _is_sampler(t):
            if not sym.space_explicit and "const" not in sym.cv:
                self.add("CL111", sym.node, f"program scope sampler '{sym.name}' must be 'const' or '__constant'",
                         fix=FixPlan("Make it 'const'", (Edit(decl.start_byte, decl.start_byte, "const "),)))
            return
        elif sym.space is not C or not sym.space_explicit:
            kind = "extern variable" if extern else "program scope variable"
            fix = None
            if not sym.space_explicit and len(_declarators(decl)) == 1 and \
                    _has_init(decl) and "const" in sym.cv:
                fix = FixPlan("Qualify it with '__constant'", (Edit(decl.start_byte, decl.start_byte,
                                                                     "__constant "),))
            where = f"is in '{sym.space.spelling}'" if sym.space_explicit else "has no address space"
            self.add("CL110", sym.node, f"{kind} '{sym.name}' {where}; without program-scope global variables "
                     f"it must be declared '__constant'", fix=fix)
            return
        if sym.space is C and not extern:
            init = _init_of(decl, sym.node)
            if not init:
                self.add("CL109", sym.node, f"'__constant' variable '{sym.name}' must be initialized")
            else:
                self._constant_init(sym, init)
        if _is_sampler(t) and not sym.space_explicit and "const" not in sym.cv:
            self.add("CL111", sym.node, f"program scope sampler '{sym.name}' must be 'const' or '__constant'")

    def _constant_init(self, sym: Symbol, init: Node) -> None:
        """A `__constant` initializer must be a compile-time constant (spec 6.7.3): no
        function call, and no variable that is neither `__constant` nor const-qualified.
        Names the model cannot resolve (macros) are given the benefit of the doubt."""
        stack = [init]
        while stack:
            n = stack.pop()
            if n.type in ("sizeof_expression", "alignof_expression"):
                continue
            if n.type == "pointer_expression" and self.text(n).lstrip().startswith("&"):
                continue  # an address constant
            if n.type == "call_expression":
                fn = n.child_by_field_name("function")
                name = self.text(fn) if fn is not None and fn.type == "identifier" else None
                target = self.m.resolve(fn) if name else None
                called = target is not None and target.kind in (SymbolKind.FUNCTION, SymbolKind.BUILTIN)
                if name and (called or (target is None and catalogue().function(name) is not None)):
                    self.add("CL109", n, f"initializer of '__constant' variable '{sym.name}' is not a "
                             f"compile-time constant: it calls '{name}'")
                    return
            if n.type == "identifier":
                ref = self.m.resolve(n)
                invalid_global = ref is not None and ref.kind is SymbolKind.GLOBAL and \
                    not has_program_scope_globals(self.target)  # its own CL110 is the error
                if ref is not None and ref.kind in (SymbolKind.GLOBAL, SymbolKind.LOCAL, SymbolKind.PARAMETER) \
                        and ref.space is not C and "const" not in ref.cv and not invalid_global:
                    where = f" in '{ref.space.spelling}'" if ref.space is not None else ""
                    self.add("CL109", n, f"initializer of '__constant' variable '{sym.name}' is not a "
                             f"compile-time constant: '{ref.name}' is a variable{where}",
                             notes=[(ref.node.start_byte, ref.node.end_byte, f"'{ref.name}' declared here")]
                             if ref.node is not None else [])
                    return
            stack.extend(n.named_children)

    def _local(self, sym: Symbol, in_kernel: bool) -> None:
        decl = sym.decl
        if decl is None or sym.node is None or not self.cert.decl_certain(decl):
            return
        if decl.type != "declaration":
            return
        if self._image_var(sym, sym.type):
            return
        static = bool(sym.storage & {"static", "extern"})
        if static and not has_program_scope_globals(self.target):
            word = "static" if "static" in sym.storage else "extern"
            explicit_constant = sym.space is C and sym.space_explicit
            if word == "static" and self.target.version.major < 2:
                self.add("CL110", sym.node, f"function scope variable '{sym.name}' cannot be declared 'static' "
                         "before OpenCL C 2.0")
                return
            if not explicit_constant:
                self.add("CL110", sym.node, f"{word} variable '{sym.name}' at function scope must reside in "
                         "'__constant' without program-scope global variables")
                return
        elif static and sym.space_explicit and sym.space in (L, P):
            word = "static" if "static" in sym.storage else "extern"
            self.add("CL110", sym.node, f"{word} variable '{sym.name}' is in '{sym.space.spelling}'; it must "
                     "reside in '__global' or '__constant'")
            return
        if not sym.space_explicit:
            return
        init = _init_of(decl, sym.node)
        if sym.space is L:
            if not in_kernel:
                self.add("CL108", sym.node, f"'__local' variable '{sym.name}' is declared in a non-kernel "
                         "function; declare it in the kernel and pass a pointer")
            elif not sym.in_kernel_scope:
                self.add("CL108", sym.node, f"'__local' variable '{sym.name}' must be declared in the "
                         "outermost scope of the kernel")
            elif init is not None:
                self.add("CL108", init, f"'__local' variable '{sym.name}' cannot have an initializer")
        elif sym.space is G and not static:
            self.add("CL110", sym.node, f"function scope variable '{sym.name}' cannot be declared in '__global'")
        elif sym.space is C and not static:
            if not in_kernel:
                self.add("CL110", sym.node, f"'__constant' variable '{sym.name}' is declared in a non-kernel "
                         "function; move it to program scope")
            elif not sym.in_kernel_scope:
                self.add("CL110", sym.node, f"'__constant' variable '{sym.name}' must be declared in the "
                         "outermost scope of the kernel")
            elif init is None:
                self.add("CL109", sym.node, f"'__constant' variable '{sym.name}' must be initialized")
            else:
                self._constant_init(sym, init)
        if _is_sampler(sym.type) and sym.space in (L, G):
            self.add("CL111", sym.node, f"sampler '{sym.name}' cannot be qualified with "
                     f"'{sym.space.spelling}'")

    def _image_var(self, sym: Symbol, t: Type) -> bool:
        base = t
        while isinstance(base, Array):
            base = base.elem
        if _is_image(base):
            self.add("CL111", sym.node, f"'{sym.name}' of type '{render(t)}' is not allowed: image types can only "
                     "be used as function parameters")
            return True
        if isinstance(base, Pointer) and (_is_image(base.pointee) or _is_sampler(base.pointee)):
            self.add("CL111", sym.node, f"pointer to type '{render(base.pointee)}' is invalid in OpenCL")
            return True
        return False

    def _fields(self) -> None:
        seen: set[int] = set()
        for t in list(self.m.index.tags.values()):
            if not isinstance(t, Struct) or t.key in seen or t.fields is None:
                continue
            seen.add(t.key)
            for f in t.fields:
                base = f.type
                while isinstance(base, Array):
                    base = base.elem
                if _is_image(base) or _is_sampler(base):
                    node = self.m.index.field_nodes.get((t.key, f.name))
                    if node is not None and in_focus(self.focus, node) and \
                            self.cert.decl_certain(self.cert.declaration_of(node)):
                        self.add("CL111", node, f"field '{f.name}' of type '{render(f.type)}' is not allowed: "
                                 f"'{render(base)}' cannot be a structure or union member")

    # -- more than one address space --------------------------------------------------------

    def _multiple_spaces(self, root: Node) -> None:
        # Only a node with an address-space qualifier among its children can have two: start
        # from the qualifiers (a query, in C) instead of walking every node of the file.
        # Within the focus only: a qualifier in a definition outside it lies outside its ranges.
        done: set[int] = set()
        index = self.m.kinds
        found = index.under(root, TYPE_QUALIFIER) if index is not None and self.focus is None else \
            nodes_of_kinds(root, TYPE_QUALIFIER, ranges=self.focus)
        for q in found:
            if _space_of_qualifier(self.src, q) is None:
                continue
            n = q.parent
            if n is None or n.type not in _MULTI_SPACE_KINDS or n.id in done:
                continue
            done.add(n.id)
            quals = [(c, q) for c in n.children if (q := _space_of_qualifier(self.src, c)) is not None]
            # Resolving the typedef is the costly part: only where a qualifier could clash.
            first: AddressSpace | None = self._typedef_space(n) if quals else None
            for c, q in quals:
                if first is None:
                    first = q
                elif q is not first:
                    self.add("CL107", c, f"multiple address spaces specified for type: "
                             f"'{first.spelling}' and '{q.spelling}'", fix=_remove(c))
                    break

    def _typedef_space(self, n: Node) -> AddressSpace | None:
        """The address space a declaration's typedef name carries (`typedef __private int pint;`)."""
        t = n.child_by_field_name("type") if n.type != "pointer_declarator" else None
        if t is None or t.type != "type_identifier":
            return None
        sym = self.m.resolve(t)
        return sym.space if sym is not None and sym.space_explicit else None


# -- syntax helpers ---------------------------------------------------------------------------

TYPE_QUALIFIER = frozenset({"type_qualifier"})
_MULTI_SPACE_KINDS = frozenset({"declaration", "parameter_declaration", "field_declaration", "type_descriptor",
                                "pointer_declarator", "abstract_pointer_declarator", "function_definition",
                                "type_definition"})


def _space_of_qualifier(src: bytes, c: Node) -> AddressSpace | None:
    if c.type != "type_qualifier" or not c.named_children or c.named_children[0].type != "address_space_qualifier":
        return None
    inner = c.named_children[0]
    return AddressSpace.from_keyword(src[inner.start_byte:inner.end_byte].decode("utf-8", "replace"))


def _space_node(src: bytes, item: Node, space: AddressSpace) -> Node | None:
    """The qualifier spelling `space` among the item's specifiers or its declarator's pointers."""
    stack = [item]
    while stack:
        n = stack.pop()
        if _space_of_qualifier(src, n) is space:
            return n
        if n.type in ("compound_statement", "parameter_list"):
            continue
        stack.extend(reversed(n.children))
    return None


def _remove(q: Node) -> FixPlan | None:
    if q.type != "type_qualifier":
        return None
    return FixPlan("Remove the address space qualifier", (Edit(q.start_byte, q.end_byte + 1, ""),))


def _unwrap(d: Node | None) -> Node | None:
    while d is not None and d.type in ("parenthesized_declarator", "attributed_declarator"):
        inner = [c for c in d.named_children if c.type not in ("attribute_specifier", "attribute_declaration")]
        d = inner[0] if inner else None
    return d


def _function_declarator(d: Node | None) -> Node | None:
    n = d
    for _ in range(20):
        if n is None:
            return None
        if n.type == "function_declarator":
            return n
        n = n.child_by_field_name("declarator") or (n.named_children[0] if n.named_children else None)
    return None


def _signature(item: Node) -> Node:
    """The item itself; the certainty scan already skips bodies and initialisers."""
    return item


def _declarators(decl: Node) -> list[Node]:
    return [c for i, c in enumerate(decl.children) if decl.field_name_for_child(i) == "declarator"]


def _has_init(decl: Node) -> bool:
    return any(d.type == "init_declarator" for d in _declarators(decl))


def _init_of(decl: Node, name: Node) -> Node | None:
    for d in _declarators(decl):
        if d.type == "init_declarator" and d.start_byte <= name.start_byte < d.end_byte:
            return d.child_by_field_name("value")
    return None


def _named(name: str | None) -> str:
    return f" '{name}'" if name else ""


__all__ = ["DeclarationChecks"]

