"""Declaration-level address-space checks (6.7 usage and initialisation, 6.11 restrictions).

Kernel signatures, qualified return types and parameters, more than one space on a type,
where `__local`, `__constant`, `__global` and program-scope variables may be declared, and
image/sampler types.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.fpga_dialects import vendor_pipe_declaration
from cllint.analysis.model import FunctionInfo, SemanticModel, Symbol
from cllint.analysis.model.scopes import SymbolKind
from cllint.analysis.model.decls import Specifiers, Typedef, TypeReader
from cllint.analysis.model.types import (
    AddressSpace,
    Array,
    Function,
    Opaque,
    Pipe,
    Pointer,
    Scalar,
    Struct,
    Type,
    Unknown,
    builtin_named,
    NumberedSpace,
    has_generic,
    has_program_scope_globals,
    numbered_space,
)

from cllint.analysis.model.walk import items_in, nodes_of_kinds

from .certainty import Certainty
from .checks import Checks, in_focus
from .head_memo import HeadMemo
from .conversions import render
from ..findings import Edit, Finding, FixPlan
from cllint.analysis.lazy_re import lazy

G, C, L, P = AddressSpace.GLOBAL, AddressSpace.CONSTANT, AddressSpace.LOCAL, AddressSpace.PRIVATE
GEN = AddressSpace.GENERIC
_BAD_SCALARS = frozenset({"bool", "size_t", "ptrdiff_t", "intptr_t", "uintptr_t"})
# Built-in types the host cannot pass to a kernel (6.11: event_t; clk_event_t, ndrange_t and
# reserve_id_t for kernels enqueued by the host; clang-19 accepts clk_event_t, so it is left out).
_HOST_OPAQUE = frozenset({"event_t", "ndrange_t", "reserve_id_t"})
# Built-in types that cannot be declared at program scope (6.11).
_NO_PROGRAM_SCOPE = frozenset({"event_t", "clk_event_t", "reserve_id_t"})
PIPES = "__opencl_c_pipes"
_CONTAINERS = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                         "preproc_elifdef", "linkage_specification", "declaration_list"})


def _is_image(t: Type) -> bool:
    return isinstance(t, Opaque) and t.name.startswith("image")


def _is_sampler(t: Type) -> bool:
    return isinstance(t, Opaque) and t.name == "sampler_t"


def _is_half(t: Type) -> bool:
    return isinstance(t, Scalar) and t.name == "half"


def _base(t: Type) -> Type:
    """The element type of a (nested) array; the type itself otherwise."""
    while isinstance(t, Array):
        t = t.elem
    return t


def _shown(t: Type) -> str:
    """A variable's type for a message: arrays as arrays, not as the pointers they decay to."""
    return t.render(full=True) if isinstance(t, Array) else render(t)


def _private_level(t: Pointer) -> Pointer | None:
    """The first pointer level (outermost first) that points to `__private` or `__generic`."""
    level: Type = t
    while isinstance(level, Pointer):
        if level.space in (P, GEN):
            return level
        level = level.pointee
    return None


class DeclarationChecks(Checks):
    def __init__(self, model: SemanticModel, certainty: Certainty, focus: list[tuple[int, int]] | None = None,
                 extension_enabled: Callable[[int, str], bool] | None = None, heads: HeadMemo | None = None) -> None:
        """`heads`: the function heads' findings the last lint of the file read (head_memo.py)."""
        super().__init__(model, certainty, focus, extension_enabled)
        self.heads = heads

    # -- entry ----------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        # With a focus, only what lies in it: the rest comes from the incremental cache.
        focus = self.focus
        heads = self.heads
        for info in self.m.index.functions.values():
            if info.is_kernel and in_focus(focus, info.definition or (info.prototypes[0] if info.prototypes
                                                                       else info.symbol.decl)):
                if heads is not None and info.definition is not None and info.symbol.decl == info.definition:
                    heads.run("kernel", info.definition, self.out, lambda: self._kernel(info))  # noqa: B023
                else:
                    self._kernel(info)
        # The focus's items only, from its offsets (a keystroke's focus is one definition of dozens).
        for item in items_in(self.m.tree.root_node, _CONTAINERS, focus):
            if item.type in ("declaration", "function_definition"):
                if heads is not None and item.type == "function_definition":
                    heads.run("declarators", item, self.out, lambda: self._function_declarators(item))  # noqa: B023
                else:
                    self._function_declarators(item)
        for sym in self.m.index.globals.values():
            if sym.decl is not None and in_focus(focus, sym.decl):
                self._program_scope(sym)
        # outside the focus a model is not even built: that is most of an incremental run's saving
        for definition in self.m.definitions_in(self.focus):
            fm = self.m.function_at_node(definition)
            # a head a macro we cannot read writes (`KERNEL(name)(...)`): a kernel or not
            kernel = True if fm.is_kernel else None if not self.cert.decl_certain(_signature(definition)) else False
            for sym in fm.locals:
                self._local(sym, kernel)
        self._multiple_spaces(self.m.tree.root_node)
        self._fields()
        self._qualified_fields(self.m.tree.root_node)
        self._blocks(self.m.tree.root_node)
        return self.out

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
            bad_level = _private_level(t)  # clang's USM parts of `__global` are fine too
            if bad_level is not None:
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
        # `half` by value: see `_param_decl`, which reads every kernel, redefinitions included.
        if isinstance(t, Scalar) and t.name in _BAD_SCALARS and \
                self._scalar_as_read(decl.child_by_field_name("type")):
            self.add("CL104", where, f"'{t.name}' cannot be used as the type of kernel parameter '{p.name}'")
        elif isinstance(t, Opaque) and t.name in _HOST_OPAQUE:
            self.add("CL104", where, f"'{t.name}' cannot be used as the type of kernel parameter '{p.name}'")
        elif isinstance(t, Struct) and t.fields is not None:
            found = self._struct_field(t)
            if found is None:
                return
            what, path, ft, node = found
            kind = "union" if t.union else "struct"
            head = f"kernel parameter '{p.name}' of type '{render(t)}' contains field '{path}' of type '{render(ft)}'"
            if what == "type":
                msg = f"{head}, which cannot be passed to a kernel"
            elif what == "image":
                msg = f"{head}; {kind} kernel parameters may not contain images"
            elif self.target.version.major < 2:
                msg = f"{head}; {kind} kernel parameters may not contain pointers before OpenCL C 2.0"
            else:
                msg = f"{head}; pointers in {kind} kernel parameters must point to '__global', '__constant' " \
                      "or '__local'"
            notes = [(node.start_byte, node.end_byte, f"field '{path}' declared here")] if node is not None else []
            self.add("CL104", where, msg, notes=notes)

    def _struct_field(self, t: Struct, path: str = "", seen: frozenset[int] = frozenset()) \
            -> tuple[str, str, Type, Node | None] | None:
        """The first field, depth first as the compiler looks, that a struct or union kernel
        parameter cannot hold: ("type", ...) for bool, size_t and the like, event_t,
        ndrange_t, reserve_id_t; ("image", ...) for an image; ("pointer", ...) for a pointer,
        any before OpenCL C 2.0 and from 2.0 one into `__private` or `__generic` memory (read
        only where its declaration is certain: a macro may carry the space)."""
        if t.key in seen:
            return None
        for f in t.fields or ():
            ft = _base(f.type)
            name = f"{path}.{f.name}" if path else f.name
            node = self.m.index.field_nodes.get((t.key, f.name))
            if (isinstance(ft, Scalar) and ft.name in _BAD_SCALARS) or \
                    (isinstance(ft, Opaque) and ft.name in _HOST_OPAQUE):
                return "type", name, ft, node
            if _is_image(ft):
                return "image", name, ft, node
            if isinstance(ft, Pointer):
                if self.target.version.major < 2:
                    return "pointer", name, f.type, node
                if node is not None and self.cert.decl_certain(self.cert.declaration_of(node)) and \
                        self.cert.type_certain(ft) and _private_level(ft) is not None:
                    return "pointer", name, f.type, node
            if isinstance(ft, Struct):
                inner = self._struct_field(ft, f"{name}[]" if isinstance(f.type, Array) else name, seen | {t.key})
                if inner is not None:
                    return inner
        return None

    # -- function declarators: qualified return types and parameters ---------------------

    def _function_declarators(self, item: Node) -> None:
        decls = [item.child_by_field_name("declarator")] if item.type == "function_definition" else \
            [c for i, c in enumerate(item.children) if item.field_name_for_child(i) == "declarator"]
        reader = TypeReader(self.src, self.target, self.m.index.typedefs, self.m.index.tags, self.m.expander,
                            self.m.strict_generic)
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
            fname = _unwrap(fdecl.child_by_field_name("declarator")) if fdecl is not None else None
            at = fname if fname is not None and fname.type == "identifier" else d
            called = f"function '{self.text(at)}'" if at is not d else "function"
            if _is_sampler(ret):
                self.add("CL111", at, f"{called} cannot return sampler type '{render(ret)}'")
            elif isinstance(ret, Pipe) and self.target.has(PIPES):
                self.add("CL116", at, f"{called} cannot return pipe type '{render(ret)}': pipes can only be "
                         "function parameters")
            elif _is_half(ret) and not spec.is_kernel and not self._fp16(item.start_byte) and \
                    self._scalar_as_read(item.child_by_field_name("type")):
                self.add("CL118", at, f"{called} cannot return 'half' by value without 'cl_khr_fp16'; return "
                         "'float', or store the result through a 'half *' with vstore_half")
            if fdecl is None:
                continue
            plist = fdecl.child_by_field_name("parameters")
            if plist is None:
                continue
            for pnode, p in zip([c for c in plist.named_children if c.type == "parameter_declaration"],
                                reader.parameters(plist), strict=False):
                self._param_decl(pnode, p, spec_of=reader.specifiers(pnode), is_kernel=spec.is_kernel)

    def _scalar_as_read(self, tnode: Node | None, depth: int = 0) -> bool:
        """The type written at `tnode` is the scalar the model reads: a built-in name, or typedefs
        down to one, none of them made a vector by `__attribute__((ext_vector_type(N)))`
        (`typedef half v4h __attribute__((ext_vector_type(4)));`), which the model does not read."""
        if tnode is None or depth > 16:
            return False
        if tnode.type in ("primitive_type", "sized_type_specifier"):
            return True
        if tnode.type != "type_identifier":
            return False
        if builtin_named(self.text(tnode)) is not None:
            return True  # `size_t`, `half`: the model reads the built-in, whatever a typedef says
        sym = self.m.resolve(tnode)
        if sym is None or sym.decl is None:
            return False
        if sym.decl.type != "type_definition" or _VECTOR_ATTR.search(self.text(sym.decl)):
            return False
        return self._scalar_as_read(sym.decl.child_by_field_name("type"), depth + 1)

    def _fp16(self, offset: int) -> bool:
        """`half` values are allowed: the target has cl_khr_fp16, or a pragma enables it here."""
        if self.target.has("cl_khr_fp16"):
            return True
        if self.extension_enabled is not None:
            return self.extension_enabled(offset, "cl_khr_fp16")
        last = None  # no preprocessor: the last pragma before `offset` in the text
        for m in _FP16_PRAGMA.finditer(self.src, 0, offset):
            last = m.group(1)
        return last == b"enable"

    def _param_decl(self, pnode: Node, p, spec_of: Specifiers, is_kernel: bool = False) -> None:  # noqa: ANN001
        d = pnode.child_by_field_name("declarator")
        top = _unwrap(d)
        is_array = top is not None and top.type in ("array_declarator", "abstract_array_declarator")
        if _is_half(p.type) and not is_array and not self._fp16(pnode.start_byte) and \
                self._scalar_as_read(pnode.child_by_field_name("type")):
            where = p.name_node or pnode
            if is_kernel:
                self.add("CL104", where, f"kernel parameter{_named(p.name)} of type 'half' cannot be passed by "
                         "value without 'cl_khr_fp16'")
            else:
                self.add("CL118", where, f"parameter{_named(p.name)} of type 'half' cannot be passed by value "
                         "without 'cl_khr_fp16'; pass 'float', or a 'half *' read with vload_half")
        # (a type the model could not read, `__global T *` through a macro with `T` the host's,
        # may be the pointer the qualifier belongs to: nothing to say)
        if p.space is not None and p.space is not P and not is_array and not isinstance(p.type, Unknown):
            q = _space_node(self.src, pnode, p.space) or pnode
            self.add("CL106", q, f"parameter{_named(p.name)} of type '{render(p.type)}' may not be qualified "
                     f"with address space '{p.space.spelling}'", fix=_remove(q))
        if isinstance(p.type, Pointer) and not is_array and (_is_image(p.type.pointee) or
                                                             _is_sampler(p.type.pointee)):
            self.add("CL111", pnode, f"pointer to type '{render(p.type.pointee)}' is invalid in OpenCL")
        if is_array and (_is_image(spec_of.type) or _is_sampler(spec_of.type)):
            self.add("CL111", pnode, f"array of '{render(spec_of.type)}' type is invalid in OpenCL")

    # -- variables ------------------------------------------------------------------------

    def _program_scope(self, sym: Symbol) -> None:
        decl = sym.decl
        if decl is None or sym.node is None or not self.cert.decl_certain(decl) or _after_recovery(decl):
            return
        t = sym.type
        if self._image_var(sym, t) or self._opaque_var(sym, t, program_scope=True):
            return
        if vendor_pipe_declaration(decl, self.src):
            return  # Xilinx's program-scope pipe (fpga_dialects.py), not a variable
        extern = "extern" in sym.storage
        if _is_sampler(t):
            if sym.space_explicit and sym.space in (L, G):
                self.add("CL111", sym.node, f"sampler '{sym.name}' cannot be qualified with "
                         f"'{sym.space.spelling}'")
                return
            if not sym.space_explicit:
                if "const" not in sym.cv:
                    self.add("CL111", sym.node, f"program scope sampler '{sym.name}' must be 'const' or "
                             "'__constant'",
                             fix=FixPlan("Make it 'const'", (Edit(decl.start_byte, decl.start_byte, "const "),)))
                return  # a `const sampler_t` is a constant
        if has_program_scope_globals(self.target):
            if sym.space_explicit and sym.space in (L, P, GEN):
                kind = "extern variable" if extern else "program scope variable"
                self.add("CL110", sym.node, f"{kind} '{sym.name}' is in '{sym.space.spelling}'; "
                         "it must reside in '__global' or '__constant'")
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
        if self._atomic_init(sym, decl):
            return
        if sym.space is C and not extern:
            init = _init_of(decl, sym.node)
            if not init:
                self.add("CL109", sym.node, f"'__constant' variable '{sym.name}' must be initialized")
            else:
                self._constant_init(sym, init)

    def _constant_init(self, sym: Symbol, init: Node) -> None:
        """A `__constant` initializer must be a compile-time constant (spec 6.7.3): no
        function call, and no variable that is neither `__constant` nor const-qualified.
        Names the model cannot resolve (macros) are given the benefit of the doubt."""
        stack = [init]
        while stack:
            n = stack.pop()
            # (a block literal's parameters and locals are its own: clang-19 takes it as a constant)
            if n.type in ("sizeof_expression", "alignof_expression", "block_literal"):
                continue
            if n.type == "pointer_expression" and self.text(n).lstrip().startswith("&"):
                ref = self._addressed(n.child_by_field_name("argument"))
                if ref is not None:
                    self.add("CL109", n, f"initializer of '__constant' variable '{sym.name}' is not a "
                             f"compile-time constant: it takes the address of '{ref.name}', a variable in "
                             f"'{(ref.space or P).spelling}'",
                             notes=[(ref.node.start_byte, ref.node.end_byte, f"'{ref.name}' declared here")]
                             if ref.node is not None else [])
                    return
                continue  # an address constant: of a program-scope, static or `__constant` object
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
                variable = ref is not None and ref.kind in (SymbolKind.GLOBAL, SymbolKind.LOCAL, SymbolKind.PARAMETER)
                # clang folds a `const` or `__constant` scalar's value, never a sampler's: a
                # sampler is initialized from an integer constant expression only.
                if variable and _is_sampler(sym.type) and _is_sampler(ref.type):
                    self.add("CL109", n, f"initializer of '__constant' sampler '{sym.name}' is not a "
                             f"compile-time constant: '{ref.name}' is a sampler variable; initialize it "
                             "from the 'CLK_*' flags",
                             notes=[(ref.node.start_byte, ref.node.end_byte, f"'{ref.name}' declared here")]
                             if ref.node is not None else [])
                    return
                if variable and ref.space is not C and "const" not in ref.cv and not invalid_global:
                    where = f" in '{ref.space.spelling}'" if ref.space is not None else ""
                    self.add("CL109", n, f"initializer of '__constant' variable '{sym.name}' is not a "
                             f"compile-time constant: '{ref.name}' is a variable{where}",
                             notes=[(ref.node.start_byte, ref.node.end_byte, f"'{ref.name}' declared here")]
                             if ref.node is not None else [])
                    return
            stack.extend(n.named_children)

    def _addressed(self, n: Node | None) -> Symbol | None:
        """For `&x`, `&x[i]`, `&x.f`: `x` when it is a parameter or an automatic variable outside
        `__constant`, whose address is no constant; None otherwise (or when `x` is unknown)."""
        while n is not None and n.type in ("subscript_expression", "field_expression", "parenthesized_expression"):
            if n.type == "field_expression" and self.text(n.child_by_field_name("operator")) == "->":
                return None  # through a pointer: whatever it points to
            n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
                (n.named_children[-1] if n.named_children else None)
        if n is None or n.type != "identifier":
            return None
        ref = self.m.resolve(n)
        if ref is None:
            return None
        if ref.kind is SymbolKind.PARAMETER or (ref.kind is SymbolKind.LOCAL and ref.space is not C and
                                                not (ref.storage & {"static", "extern"})):
            return ref
        return None

    def _local(self, sym: Symbol, in_kernel: bool | None) -> None:
        """`in_kernel` None: the function's kind is unknown (its head is a macro's), so only
        what no function may declare is reported."""
        decl = sym.decl
        if decl is None or sym.node is None or not self.cert.decl_certain(decl):
            return
        if decl.type != "declaration":
            return
        if self._image_var(sym, sym.type) or self._opaque_var(sym, sym.type, program_scope=False):
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
        elif static and sym.space_explicit and sym.space in (L, P, GEN):
            word = "static" if "static" in sym.storage else "extern"
            self.add("CL110", sym.node, f"{word} variable '{sym.name}' is in '{sym.space.spelling}'; it must "
                     "reside in '__global' or '__constant'")
            return
        if sym.space is not L and self._atomic_init(sym, decl):
            return  # a `__local` one has CL108: no `__local` variable takes an initializer
        if not sym.space_explicit:
            return
        if _is_sampler(sym.type) and sym.space in (L, G):
            # One error, as clang gives: the sampler's, not also the `__global` variable's.
            self.add("CL111", sym.node, f"sampler '{sym.name}' cannot be qualified with "
                     f"'{sym.space.spelling}'")
            return
        init = _init_of(decl, sym.node)
        if sym.space is L:
            if in_kernel is None:
                if init is not None:
                    self.add("CL108", init, f"'__local' variable '{sym.name}' cannot have an initializer")
            elif not in_kernel:
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
            if in_kernel is None:
                if init is not None:
                    self._constant_init(sym, init)
            elif not in_kernel:
                self.add("CL110", sym.node, f"'__constant' variable '{sym.name}' is declared in a non-kernel "
                         "function; move it to program scope")
            elif not sym.in_kernel_scope:
                self.add("CL110", sym.node, f"'__constant' variable '{sym.name}' must be declared in the "
                         "outermost scope of the kernel")
            elif init is None:
                self.add("CL109", sym.node, f"'__constant' variable '{sym.name}' must be initialized")
            else:
                self._constant_init(sym, init)
        elif sym.space is GEN and not static:
            self.add("CL110", sym.node, f"function scope variable '{sym.name}' cannot be declared in '__generic': "
                     "the generic address space is only for what pointers point to")

    def _atomic_init(self, sym: Symbol, decl: Node) -> bool:
        """CL110: an initialized atomic variable outside `__global` (6.15.12.3: only program-scope
        and static atomics, which live in `__global`, may be initialized; others take
        atomic_init())."""
        base = _base(sym.type)
        if not (isinstance(base, Opaque) and base.name.startswith("atomic_")) or sym.node is None or \
                self.target.version.major < 2:  # before 2.0 the names are no types (CL303 says so)
            return False
        init = _init_of(decl, sym.node)
        space = sym.space or P
        if init is None or space is G or not self.cert.decl_certain(decl):
            return False
        self.add("CL110", init, f"atomic variable '{sym.name}' of type '{_shown(sym.type)}' in '{space.spelling}' "
                 "cannot be initialized: only '__global' atomics can; call 'atomic_init' instead")
        return True

    def _image_var(self, sym: Symbol, t: Type) -> bool:
        base = _base(t)
        if _is_image(base):
            self.add("CL111", sym.node, f"'{sym.name}' of type '{_shown(t)}' is not allowed: image types can only "
                     "be used as function parameters")
            return True
        if isinstance(base, Pointer) and (_is_image(base.pointee) or _is_sampler(base.pointee)):
            self.add("CL111", sym.node, f"pointer to type '{render(base.pointee)}' is invalid in OpenCL")
            return True
        if isinstance(t, Array) and _is_sampler(base):
            self.add("CL111", sym.node, f"array '{sym.name}' of type '{_shown(t)}' is not allowed: samplers "
                     "cannot be stored in arrays")
            return True
        return False

    def _opaque_var(self, sym: Symbol, t: Type, program_scope: bool) -> bool:
        """Pipes outside parameters; event_t, clk_event_t, reserve_id_t at program scope; event_t
        outside `__private` (6.11; Pipe Functions, Restrictions)."""
        base = _base(t)
        if isinstance(base, Pipe):
            if not self.target.has(PIPES):
                return False  # no pipes at all (CL302 and CL303 report it): only the general rules
            self.add("CL116", sym.node, f"'{sym.name}' of type '{_shown(t)}' is not allowed: pipes can only be "
                     "function parameters")
            return True
        if not isinstance(base, Opaque):
            return False
        if program_scope and base.name in _NO_PROGRAM_SCOPE:
            self.add("CL116", sym.node, f"'{sym.name}' of type '{_shown(t)}' cannot be declared at program scope")
            return True
        # An array of events in `__local` is fine to clang-19, as event_t fields in arrays are.
        if base.name == "event_t" and not isinstance(t, Array) and sym.space_explicit and sym.space is not P:
            self.add("CL116", sym.node, f"event '{sym.name}' cannot be qualified with '{sym.space.spelling}': "
                     "'event_t' can only be used in '__private'")
            return True
        return False

    def _fields(self) -> None:
        seen: set[int] = set()
        # Named tags, and the anonymous structs of typedefs (`typedef struct { ... } S;`).
        structs = [*self.m.index.tags.values(), *(td.type for td in self.m.index.typedefs.values())]
        for t in structs:
            if not isinstance(t, Struct) or t.key in seen or t.fields is None:
                continue
            seen.add(t.key)
            for f in t.fields:
                base = _base(f.type)
                pipe = isinstance(base, Pipe) and self.target.has(PIPES)
                event = isinstance(f.type, Opaque) and f.type.name == "event_t"  # clang-19 takes arrays of them
                if not (_is_image(base) or _is_sampler(base) or pipe or event):
                    continue
                node = self.m.index.field_nodes.get((t.key, f.name))
                if node is None or not in_focus(self.focus, node) or \
                        not self.cert.decl_certain(self.cert.declaration_of(node)):
                    continue
                code = "CL116" if pipe or event else "CL111"
                self.add(code, node, f"field '{f.name}' of type '{render(f.type)}' is not allowed: "
                         f"'{render(base)}' cannot be a structure or union member")

    def _qualified_fields(self, root: Node) -> None:
        """CL106: a field whose own type has an address space (`struct S { global int x; };`,
        `int *global p;`, or a typedef that carries one). The space of what a pointer field
        points to is fine: a struct lives wholly in the space of the object it belongs to."""
        if not _SPACE_WORDS.search(self.src):
            return  # no space written anywhere: no field can have one
        if not root.has_error and b"struct" not in self.src and b"union" not in self.src:
            # A field is only in a struct or union body, which a tree without errors has only
            # after the keyword written in the text (errors may insert a MISSING one): reading
            # every node of the file for none costs ~50M instructions on 1,500 lines.
            return
        reader = None
        index = self.m.kinds  # (the lint's one query over the tree, when it has one: not a read of every node)
        found = index.under(root, FIELDS) if index is not None and self.focus is None else \
            nodes_of_kinds(root, FIELDS, ranges=self.focus)
        for fd in found:
            if fd.has_error or not self.cert.decl_certain(fd):
                continue
            if reader is None:
                reader = TypeReader(self.src, self.target, self.m.index.typedefs, self.m.index.tags,
                                    self.m.expander, self.m.strict_generic)
            try:
                spec = reader.specifiers(fd)
                declared = [(d, reader.declare(spec, d)) for d in _declarators(fd)]
            except RecursionError:
                continue
            for d, got in declared:
                if got.space is None:
                    continue
                # After a `*` the qualifier is the declarator's; otherwise among the specifiers
                # (or in a typedef, where there is nothing here to remove).
                q = _space_node(self.src, d, got.space) or \
                    (_space_node(self.src, fd, got.space) if spec.space is got.space else None)
                at = q or got.name_node or fd
                self.add("CL106", at, f"field{_named(got.name)} of type '{_shown(got.type)}' may not be qualified "
                         f"with address space '{got.space.spelling}'", fix=_remove(q) if q is not None else None)

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

    # -- blocks (6.14.5) ----------------------------------------------------------------------

    def _blocks(self, root: Node) -> None:
        """Blocks returned by functions, as struct or union fields, in arrays, behind pointers.

        `int (^bl)(void)` is a function declarator around `(^bl)`, a block pointer
        declarator: only a file with a `(^` can declare one. Block typedefs are then
        followed to their uses."""
        if not has_block_declarator(self.src):  # `^` alone is mostly XOR
            return
        typedefs: dict[str, str] = {}  # name -> the block type, as written
        for caret in nodes_of_kinds(root, frozenset({"block_pointer_declarator"})):
            got = _block_declarator(caret)
            if got is None:
                continue
            inner, fdecl = got
            holder = fdecl.parent
            if holder is not None and holder.type == "init_declarator":
                holder = holder.parent
            if holder is None:
                continue
            spelled = self._block_spelling(holder, fdecl)
            if holder.type == "type_definition" and inner.type == "type_identifier":
                typedefs[self.text(inner)] = spelled
            elif not in_focus(self.focus, inner):
                continue
            elif holder.type == "field_declaration":
                name = _innermost_name(inner)
                if name is not None:
                    self.add("CL117", name, f"field '{self.text(name)}' of block type '{spelled}' is not allowed: "
                             "blocks cannot be structure or union members")
            elif holder.type == "declaration" and inner.type == "array_declarator":
                name = _innermost_name(inner)
                if name is not None:
                    self.add("CL117", name, f"array '{self.text(name)}' of block type '{spelled}' is not "
                             "allowed: OpenCL C has no arrays of blocks")
        # A typedef name is a block only if no other typedef (and no macro) claims it.
        names = {n: sp for n, sp in typedefs.items() if _is_block(self.m.index.typedefs.get(n))}
        if names:
            self._block_typedef_uses(root, names)

    def _block_spelling(self, holder: Node, fdecl: Node) -> str:
        tnode = holder.child_by_field_name("type")
        plist = fdecl.child_by_field_name("parameters")
        return f"{self.text(tnode)} (^){self.text(plist)}" if tnode is not None and plist is not None else "block"

    def _block_typedef_uses(self, root: Node, names: dict[str, str]) -> None:
        for tid in nodes_of_kinds(root, frozenset({"type_identifier"}), ranges=self.focus):
            word = self.text(tid)
            item = tid.parent
            if word not in names or item is None or item.child_by_field_name("type") != tid or \
                    item.type not in _BLOCK_USERS or item.has_error or self.cert._expands(
                        word, tid.start_byte, self.m.expander):
                continue
            what = f"'{word}' (a block type, '{names[word]}')"
            for d in _declarators(item) if item.type != "function_definition" else \
                    [item.child_by_field_name("declarator")]:
                if d is not None and d.type == "init_declarator":
                    d = d.child_by_field_name("declarator")
                d = _unwrap(d)
                if d is None:
                    continue
                name = _innermost_name(d)
                if name is None:
                    continue
                label = self.text(name)
                if d.type == "function_declarator" and item.type in ("declaration", "function_definition") and \
                        _unwrap(d.child_by_field_name("declarator")) == name:
                    self.add("CL117", name, f"function '{label}' cannot return {what}: a block cannot be the "
                             "return value of a function")
                elif d.type == "pointer_declarator":
                    self.add("CL117", name, f"'{label}' is a pointer to {what}: pointers to blocks are not allowed")
                elif d.type == "array_declarator":
                    self.add("CL117", name, f"array '{label}' of {what} is not allowed: OpenCL C has no arrays "
                             "of blocks")
                elif item.type == "field_declaration" and d.type == "field_identifier":
                    self.add("CL117", name, f"field '{label}' of {what} is not allowed: blocks cannot be "
                             "structure or union members")

    def _typedef_space(self, n: Node) -> AddressSpace | None:
        """The address space a declaration's typedef name carries (`typedef __private int pint;`)."""
        t = n.child_by_field_name("type") if n.type != "pointer_declarator" else None
        if t is None or t.type != "type_identifier":
            return None
        sym = self.m.resolve(t)
        return sym.space if sym is not None and sym.space_explicit else None


# -- syntax helpers ---------------------------------------------------------------------------

# Where a space is written among specifiers: `__global`, or clang's `__attribute__((opencl_global))`.
TYPE_QUALIFIER = frozenset({"type_qualifier", "attribute_specifier"})
FIELDS = frozenset({"field_declaration"})
_MULTI_SPACE_KINDS = frozenset({"declaration", "parameter_declaration", "field_declaration", "type_descriptor",
                                "pointer_declarator", "abstract_pointer_declarator", "function_definition",
                                "type_definition"})


def _space_of_qualifier(src: bytes, c: Node) -> AddressSpace | None:
    if c.type == "attribute_specifier":
        return _space_of_attribute(src, c)
    if c.type != "type_qualifier" or not c.named_children or c.named_children[0].type != "address_space_qualifier":
        return None
    inner = c.named_children[0]
    return AddressSpace.from_keyword(src[inner.start_byte:inner.end_byte].decode("utf-8", "replace"))


def _space_of_attribute(src: bytes, c: Node) -> AddressSpace | NumberedSpace | None:
    """`__attribute__((opencl_global))` or `__attribute__((address_space(3)))`: the space it
    names, if any."""
    args = next((a for a in c.named_children if a.type == "argument_list"), None)
    for a in args.named_children if args is not None else ():
        if a.type == "identifier":
            space = AddressSpace.from_attribute(src[a.start_byte:a.end_byte].decode("utf-8", "replace"))
            if space is not None:
                return space
        elif a.type == "call_expression":  # `address_space(3)`: a numbered space
            fn, nums = a.child_by_field_name("function"), a.child_by_field_name("arguments")
            lit = nums.named_children if nums is not None else []
            if fn is not None and src[fn.start_byte:fn.end_byte].strip(b"_") == b"address_space" and \
                    len(lit) == 1 and lit[0].type == "number_literal" and \
                    src[lit[0].start_byte:lit[0].end_byte].isdigit():
                return numbered_space(int(src[lit[0].start_byte:lit[0].end_byte]))
    return None


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
    if q.type == "attribute_specifier":  # `__attribute__((opencl_global))`, the space alone
        args = next((a for a in q.named_children if a.type == "argument_list"), None)
        if args is None or len(args.named_children) != 1:
            return None
    elif q.type != "type_qualifier":
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


# Any address space spelled in a file: a keyword, clang's attribute, or a number.
_SPACE_WORDS = re.compile(rb"\b(?:__)?(?:global|local|constant|private|generic)\b|opencl_|address_space")
_VECTOR_ATTR = lazy(r"\b(?:__)?(?:ext_vector_type|vector_size)(?:__)?\b")
_BLOCK_DECLARATOR = lazy(rb"\(\s*\^")
_CARETS_SCANNED = 64  # past this many, the pattern's scan (in C) costs less than a loop per caret
_SPACE = frozenset(b" \t\n\r\f\v")  # what `\s` matches in a bytes pattern


def has_block_declarator(src: bytes) -> bool:
    """`_BLOCK_DECLARATOR` in `src`, read from the carets: a file has a few (XOR) and many `(`,
    each of which the pattern tries (0.19 ms of a 90 KB file, every keystroke: issue 32)."""
    i, seen = src.find(b"^"), 0
    while i != -1:
        seen += 1
        if seen > _CARETS_SCANNED:
            return _BLOCK_DECLARATOR.search(src) is not None
        j = i - 1
        while j >= 0 and src[j] in _SPACE:
            j -= 1
        if j >= 0 and src[j] == 40:  # 40: '('
            return True
        i = src.find(b"^", i + 1)  # (`find` of one byte is memchr; `count` is not)
    return False
_BLOCK_USERS = frozenset({"declaration", "field_declaration", "parameter_declaration", "function_definition"})
_FP16_PRAGMA = lazy(rb"^[ \t]*#[ \t]*pragma[ \t]+OPENCL[ \t]+EXTENSION[ \t]+(?:cl_khr_fp16|all)[ \t]*:[ \t]*"
                          rb"(enable|disable)", re.M)


def _block_declarator(caret: Node) -> tuple[Node, Node] | None:
    """For the `(^name)` of `int (^name)(void)`: the declarator after the caret (`name`,
    `name[2]`) and the function declarator around the parentheses."""
    inner = caret.child_by_field_name("declarator")
    paren = caret.parent
    if inner is None or paren is None or paren.type != "parenthesized_declarator":
        return None
    fdecl = paren.parent
    if fdecl is None or fdecl.type != "function_declarator" or fdecl.child_by_field_name("declarator") != paren:
        return None
    if inner.type not in ("identifier", "field_identifier", "type_identifier", "array_declarator"):
        return None
    return inner, fdecl


def _is_block(td: Typedef | None) -> bool:
    """A typedef the model read as a block (or none: the name is the block typedef's alone)."""
    return td is None or (isinstance(td.type, Opaque) and td.type.name == "block")


def _innermost_name(d: Node | None) -> Node | None:
    """The identifier a declarator declares."""
    for _ in range(20):
        if d is None or d.type in ("identifier", "field_identifier", "type_identifier"):
            return d
        d = d.child_by_field_name("declarator") or next(
            (c for c in d.named_children if c.type not in ("attribute_specifier", "ERROR")), None)
    return None


def _after_recovery(decl: Node) -> bool:
    """The declaration follows one the parser closed with a missing token: what it reads as
    a new declaration may be the rest of the one before (`typedef __attribute__((...)) unsigned
    char uchar4;` parts as `... unsigned` and `char uchar4;`)."""
    prev = decl.prev_sibling
    if prev is None or not prev.has_error:
        return False
    last = prev
    while last.child_count:
        last = last.children[-1]
    return last.is_missing or prev.type == "ERROR"


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

