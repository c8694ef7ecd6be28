"""Expression-level address-space checks in function bodies (6.7.4 conversions, 6.7.3 `__constant`).

Implicit conversions (initialisation, assignment, argument passing, return), comparisons,
pointer subtraction, the arms of `?:`, explicit casts, writes through `__constant` pointers,
and the checks beyond the compiler: dangling `__local`/`__private` addresses, unqualified helper
parameters in OpenCL C 1.x, and `to_global()`-style results used without a null check.
"""

from __future__ import annotations


from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.model import FunctionModel, SemanticModel, Symbol, SymbolKind
from cllint.analysis.model.types import (
    AddressSpace,
    Array,
    Pointer,
    Scalar,
    Struct,
    Type,
    Vector,
    has_generic,
    is_enclosed,
)
from cllint.analysis.model.walk import nodes_of_kinds, outside

from .builtins import pointer_spaces, spelled, unqualified_space
from .certainty import Certainty, is_null_constant
from .checks import Checks, in_focus
from .conversions import Mismatch, assign_mismatch, cast_allowed, overlapping, pointer_of, render
from ..findings import Edit, Finding, FixPlan
from cllint.analysis.lazy_re import lazy

G, C, L, P, GEN = (AddressSpace.GLOBAL, AddressSpace.CONSTANT, AddressSpace.LOCAL, AddressSpace.PRIVATE,
                   AddressSpace.GENERIC)
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">="})
_TO_SPACE = {"to_global": G, "to_local": L, "to_private": P}
_SKIP = frozenset({"preproc_skipped", "comment", "string_literal", "preproc_def", "preproc_function_def"})
VISITED = _SKIP | {"init_declarator", "assignment_expression", "update_expression", "call_expression",
                    "return_statement", "binary_expression", "conditional_expression", "cast_expression"}
_CALLS = _SKIP | {"call_expression"}
_WORD = lazy(rb"[A-Za-z_]\w*")


class ExpressionChecks(Checks):
    def __init__(self, model: SemanticModel, certainty: Certainty,
                 focus: list[tuple[int, int]] | None = None) -> None:
        super().__init__(model, certainty, focus)
        self._helper_calls: dict[tuple[str, int], list[tuple[Node, AddressSpace]]] = {}
        self._by_name: dict[str, list[Node]] | None = None

    # -- entry ----------------------------------------------------------------------------

    def run(self) -> list[Finding]:
        # The focus's definitions by bisection (a keystroke's run asked each of dozens).
        for definition in self.m.definitions_in(self.focus):
            body = definition.child_by_field_name("body")
            if body is not None:
                self._visit(definition, body, self._node, VISITED)
        # Outside the focus only the calls of helpers that the focus passes a pointer in
        # the wrong space (CL114) matter: the fix offered reads every call site. Functions
        # that name none of them are not even modelled.
        helpers = {name.encode() for name, _ in self._helper_calls}
        if helpers and self.focus is not None:
            for definition in self.m.index.definitions:
                body = definition.child_by_field_name("body")
                if body is None or in_focus(self.focus, definition):
                    continue
                if not helpers.isdisjoint(_WORD.findall(self.src, body.start_byte, body.end_byte)):
                    self._visit(definition, body, self._call_only, _CALLS)
        self._helper_findings()
        return self.out

    def _visit(self, definition: Node, body: Node, visit, kinds: frozenset[str]) -> None:  # noqa: ANN001
        self.fm = self.m.function_at_node(definition)
        # The nodes a depth-first walk of the body would dispatch on, in its order.
        index = self.m.kinds
        found = index.under(body, kinds) if index is not None else nodes_of_kinds(body, kinds)
        for n in outside(found, _SKIP):
            try:
                visit(n)
            except RecursionError:
                pass

    def _call_only(self, n: Node) -> None:
        if n.type == "call_expression":
            self._call(n)

    def _node(self, n: Node) -> None:
        k = n.type
        if k == "init_declarator":
            self._init(n)
        elif k == "assignment_expression":
            self._assignment(n)
        elif k == "update_expression":
            self._write(n.child_by_field_name("argument"), n)
        elif k == "call_expression":
            self._call(n)
        elif k == "return_statement":
            self._return(n)
        elif k == "binary_expression":
            self._binary(n)
        elif k == "conditional_expression":
            self._conditional(n)
        elif k == "cast_expression":
            self._cast(n)

    # -- helpers --------------------------------------------------------------------------

    def ptr(self, node: Node | None) -> Pointer | None:
        """The pointer type of an expression, if known for certain."""
        if node is None or is_null_constant(self.src, node):
            return None
        inner = node
        while inner.type == "parenthesized_expression" and inner.named_children:
            inner = inner.named_children[-1]
        if inner.type == "conditional_expression":  # the arms are checked on their own
            a = self.ptr(inner.child_by_field_name("consequence"))
            b = self.ptr(inner.child_by_field_name("alternative")) if a is not None else None
            if a is not None and b is not None and not overlapping(a.space, b.space):
                return None
        p = pointer_of(self.fm.type_of(node))
        if p is None or not self.cert.type_certain(p) or not self.cert.expr_certain(node):
            return None
        return p

    def _dest(self, sym: Symbol | None) -> Pointer | None:
        if sym is None or sym.type is None:
            return None
        p = pointer_of(sym.type) if isinstance(sym.type, Pointer) else None
        if p is None or not self.cert.type_certain(p):
            return None
        decl = self.cert.declaration_of(sym.node)
        return p if self.cert.decl_certain(decl) else None

    def _mismatch(self, src: Pointer, dst: Pointer) -> str | None:
        return assign_mismatch(src, dst)

    # -- initialisation and assignment ----------------------------------------------------

    def _init(self, n: Node) -> None:
        value = n.child_by_field_name("value")
        if value is None or value.type == "initializer_list":
            return
        name = _name_of(n.child_by_field_name("declarator"))
        sym = self.fm.refs.get(name.id) if name is not None else None
        if sym is None or sym.kind is not SymbolKind.LOCAL:
            return
        dst = self._dest(sym)  # the cheap side first: most declarations are not pointers
        src = self.ptr(value) if dst is not None else None
        if dst is None or src is None:
            return
        why = self._mismatch(src, dst)
        if why is None:
            return
        fix = None
        decl = sym.decl
        tnode = decl.child_by_field_name("type") if decl is not None else None
        if (why is Mismatch.POINTER and not dst.explicit and tnode is not None and decl is not None
                and len([c for i, c in enumerate(decl.children) if decl.field_name_for_child(i) == "declarator"]) == 1
                and not isinstance(dst.pointee, Pointer)):
            fix = FixPlan(f"Qualify the pointee with '{src.space.spelling}'",
                          (Edit(tnode.start_byte, tnode.start_byte, f"{src.space.spelling} "),))
        # From the declared name to the end of the value, as clang places it: a declaration
        # split over lines is reported on the name's line.
        self.add_span("CL101", name.start_byte if name is not None else value.start_byte, value.end_byte,
                      f"initializing '{render(dst)}' with an expression of type '{render(src)}' "
                      f"changes address space of {why}", fix=fix)
        self._dangling_store(None, value, src)

    def _assignment(self, n: Node) -> None:
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if left is not None and self._inert(left):
            return  # most assignments: `_write` and `ptr(left)` below would both find nothing
        op = self.text(n.child_by_field_name("operator"))
        self._write(left, n)
        if op != "=" or left is None or right is None:
            return
        dst = self.ptr(left)  # typing the right side only matters for pointer targets
        src = self.ptr(right) if dst is not None else None
        if dst is None or src is None:
            return
        why = self._mismatch(src, dst)
        if why is not None:
            self.add("CL101", right, f"assigning '{render(src)}' to '{render(dst)}' changes address space of "
                     f"{why}")
            return
        self._dangling_store(left, right, src)

    def _inert(self, left: Node) -> bool:
        """`left` is `x` or `x[i]` for a variable `x` whose type says the object written is
        neither in `__constant` nor a pointer: what `_write` and `ptr` read (the typer's
        `space_of` and `type_of`), taken straight from the symbol."""
        k = left.type
        if k == "identifier":
            sym = self.fm.refs.get(left.id)
            return sym is not None and sym.kind is not SymbolKind.BUILTIN and sym.space is not C and \
                pointer_of(sym.type) is None
        if k != "subscript_expression":
            return False
        arg = left.child_by_field_name("argument")
        if arg is None or arg.type != "identifier":
            return False
        sym = self.fm.refs.get(arg.id)
        if sym is None or sym.kind is SymbolKind.BUILTIN:
            return False
        t = sym.type
        if isinstance(t, Array):
            return t.space is not C and pointer_of(t.elem) is None
        if isinstance(t, Pointer):
            return t.space is not C and not isinstance(t.pointee, Array) and pointer_of(t.pointee) is None
        if isinstance(t, Vector):  # a component: a scalar in the vector's space
            return sym.space is not C and pointer_of(t.elem) is None
        return False

    def _write(self, left: Node | None, whole: Node) -> None:
        """CL112: the object written lives in `__constant`."""
        if left is None:
            return
        space = self.fm.typer.space_of(left)
        if space is not C or not self.cert.expr_certain(left):
            return
        base = left
        while base.type == "parenthesized_expression" and base.named_children:
            base = base.named_children[-1]
        if base.type == "identifier":
            sym = self.fm.refs.get(base.id) or self.m.resolve(base)
            if sym is not None and not sym.space_explicit:
                return  # an inferred __constant (OpenCL C 1.x program scope) is reported as CL110
            what = f"'__constant' variable '{self.text(base)}'"
        else:
            t = self.fm.type_of(left)
            what = f"'{render(t)}' object in '__constant' memory"
        self.add("CL112", left, f"cannot write to {what}: '__constant' memory is read-only")

    def _dangling_store(self, left: Node | None, right: Node, src: Pointer) -> None:
        """CL113: a `__local` or `__private` address stored into `__global` memory."""
        if left is None or src.space not in (L, P):
            return
        where = self.fm.typer.space_of(left)
        if where is not G or not self.cert.expr_certain(left):
            return
        if src.space is P and not _addresses_local_object(self, right):
            return
        life = "work-group" if src.space is L else "work-item"
        self.add("CL113", right, f"storing '{render(src)}' into '__global' memory: the '{src.space.spelling}' "
                 f"address dangles once the {life} ends")

    # -- calls ----------------------------------------------------------------------------

    def _overloads(self, name: str) -> list[list[Symbol]]:
        """Parameter lists of the file's definitions of `name` where there is more than one:
        an overload set (clang's `overloadable`; libclc extends the built-ins so). Definitions
        are grouped by their declarator's name, read from the head alone; only a set's members
        get a function model (a keystroke re-analyses one function: building every function's
        model here cost basic.cl 40 ms a keystroke)."""
        by_name = self._by_name
        if by_name is None:
            by_name = {}
            for definition, named in self.m.definition_names():
                key = named or self.m.function_at_node(definition).name
                if key:
                    by_name.setdefault(key, []).append(definition)
            self._by_name = by_name
        definitions = by_name.get(name, ())
        if len(definitions) < 2:
            return []
        return [list(fm.params) for d in definitions if (fm := self.m.function_at_node(d)).name == name]

    def _fits(self, args: list[Node], params: list[Symbol]) -> bool:
        """Whether no pointer argument changes address space into its parameter."""
        if len(args) != len(params):
            return False
        for arg, param in zip(args, params):
            dst = pointer_of(param.type) if isinstance(param.type, Pointer) else None
            src = self.ptr(arg) if dst is not None else None
            if src is not None and self._mismatch(src, dst) is not None:
                return False
        return True

    def _call(self, n: Node) -> None:
        callee = n.child_by_field_name("function")
        args_node = n.child_by_field_name("arguments")
        if callee is None or callee.type != "identifier" or args_node is None:
            return
        name = self.text(callee)
        if name in _TO_SPACE:
            self._to_space_argument(name, [a for a in args_node.named_children if a.type != "comment"])
            self._to_space(n, name)
            return
        sym = self.fm.refs.get(callee.id)
        if sym is not None and sym.kind is SymbolKind.BUILTIN:
            self._builtin_call(name, [a for a in args_node.named_children if a.type != "comment"])
            return
        if sym is None or sym.kind is not SymbolKind.FUNCTION:
            return
        info = self.m.index.functions.get(name)
        if info is None:
            return
        item = info.definition if info.definition is not None else (info.prototypes[0] if info.prototypes else None)
        if item is None or not self.cert.decl_certain(item):
            return
        args = [a for a in args_node.named_children if a.type != "comment"]
        overloads = self._overloads(name)
        if len(overloads) > 1 and (catalogue().function(name) is not None
                                   or any(self._fits(args, params) for params in overloads)):
            return  # an overloadable name: the call picks an overload that fits (a built-in's too)
        for i, (arg, param) in enumerate(zip(args, info.params, strict=False)):
            dst = pointer_of(param.type) if isinstance(param.type, Pointer) else None
            if dst is None or not self.cert.type_certain(dst) or \
                    not self.cert.decl_certain(self.cert.declaration_of(param.node)):
                continue
            src = self.ptr(arg)
            if src is None:
                continue
            why = self._mismatch(src, dst)
            if why is None:
                continue
            pname = f"'{param.name}'" if param.name else f"{i + 1}"
            notes = [(param.node.start_byte, param.node.end_byte, f"'{param.name}' declared here")] \
                if param.node is not None else []
            if (why is Mismatch.POINTER and not dst.explicit and not has_generic(self.target)
                    and src.space is not P and not isinstance(dst.pointee, Pointer) and not info.is_kernel):
                self._helper_calls.setdefault((name, i), []).append((arg, src.space))
                self.out.append(Finding("CL114", arg.start_byte, arg.end_byte,
                                        f"passing '{render(src)}' to parameter {pname} of type '{render(dst)}': "
                                        f"helper '{name}' has no address space on '{param.name or i + 1}', so it "
                                        f"points to '__private' in OpenCL C {self.target.version.major}."
                                        f"{self.target.version.minor}", tuple(notes), None))
                continue
            self.add("CL101", arg, f"passing '{render(src)}' to parameter {pname} of type '{render(dst)}' "
                     f"changes address space of {why}", notes=notes)

    def _builtin_call(self, name: str, args: list[Node]) -> None:
        """CL101: a pointer argument into a space no overload of the built-in takes at its
        position (a `__constant` pointer where `vstore4` writes, a `__private` one to `atomic_add`)."""
        spaces = pointer_spaces(name, len(args), unqualified_space(self.target))
        if spaces is None:
            return
        for i, (arg, allowed) in enumerate(zip(args, spaces, strict=True)):
            if allowed is None:
                continue
            src = self.ptr(arg)
            if src is None or any(is_enclosed(src.space, s) for s in allowed):
                continue
            self.add("CL101", arg, f"no overload of '{name}' takes '{render(src)}' as argument {i + 1}: "
                     f"it takes pointers to {spelled(allowed)}")

    def _helper_findings(self) -> None:
        """Give each CL114 the fix of qualifying the helper's parameter (safe when every caller agrees)."""
        if not self._helper_calls:
            return
        fixed: list[Finding] = []
        by_arg = {(arg.start_byte, arg.end_byte): key for key, calls in self._helper_calls.items()
                  for arg, _ in calls}
        for f in self.out:
            key = by_arg.get((f.start, f.end)) if f.code == "CL114" else None
            if key is None:
                fixed.append(f)
                continue
            spaces = {s for _, s in self._helper_calls[key]}
            space = next(iter(spaces)) if len(spaces) == 1 else None
            plan = self._qualify_param(key[0], key[1], space) if space is not None else None
            fixed.append(Finding(f.code, f.start, f.end, f.message.rstrip("."), f.notes, plan))
        self.out = fixed

    def _qualify_param(self, fname: str, index: int, space: AddressSpace) -> FixPlan | None:
        info = self.m.index.functions.get(fname)
        if info is None:
            return None
        edits = []
        for item in ([info.definition] if info.definition is not None else []) + list(info.prototypes):
            pnode = _param_node(item, index)
            tnode = pnode.child_by_field_name("type") if pnode is not None else None
            if tnode is None:
                return None
            edits.append(Edit(tnode.start_byte, tnode.start_byte, f"{space.spelling} "))
        if not edits:
            return None
        return FixPlan(f"Qualify parameter of '{fname}' with '{space.spelling}'", tuple(edits), safe=True)

    def _to_space_argument(self, name: str, args: list[Node]) -> None:
        """CL102: to_global()/to_local()/to_private() take a pointer that converts to a generic
        one (6.15.9): not a `__constant` pointer, and not a value that is no pointer at all."""
        if not has_generic(self.target) or len(args) != 1:
            return
        arg = args[0]
        src = self.ptr(arg)
        if src is not None:
            if not is_enclosed(src.space, GEN):
                self.add("CL102", arg, f"'{name}' expects a generic pointer argument, but '{render(src)}' "
                         f"points to '{src.space.spelling}', which '__generic' does not enclose")
            return
        t = self.fm.type_of(arg)
        # `0` is an int, which clang rejects; `NULL` and `(void *)0` are pointers.
        null_pointer = is_null_constant(self.src, arg) and arg.type != "number_literal"
        if isinstance(t, (Scalar, Vector, Struct)) and not null_pointer and self.cert.expr_certain(arg):
            self.add("CL102", arg, f"'{name}' expects a generic pointer argument, not '{render(t)}'")

    def _to_space(self, n: Node, name: str) -> None:
        """CL115: the result of to_global()/to_local()/to_private() used without a null check."""
        if not has_generic(self.target):
            return
        parent = n.parent
        while parent is not None and parent.type == "parenthesized_expression":
            parent = parent.parent
        if parent is None:
            return
        target_space = _TO_SPACE[name]
        msg = (f"'{name}' returns NULL when its argument does not point into '{target_space.spelling}'; "
               "the result is used without a null check")
        if parent.type in ("pointer_expression", "subscript_expression", "field_expression") and \
                parent.child_by_field_name("argument") is not None and \
                parent.child_by_field_name("argument").start_byte <= n.start_byte and \
                self.text(parent.child_by_field_name("operator")) != "&":
            self.add("CL115", n, msg)
            return
        var: Node | None = None
        if parent.type == "init_declarator":
            var = _name_of(parent.child_by_field_name("declarator"))
        elif parent.type == "assignment_expression" and parent.child_by_field_name("left") is not None and \
                parent.child_by_field_name("left").type == "identifier":
            var = parent.child_by_field_name("left")
        if var is None:
            return
        sym = self.fm.refs.get(var.id)
        if sym is None:
            return
        uses = [r for r in _refs_after(self.fm, sym, n.end_byte)]
        if any(_is_null_test(self, u) for u in uses):
            return
        deref = next((u for u in uses if _is_deref(u)), None)
        if deref is not None:
            self.add("CL115", n, msg, notes=[(deref.start_byte, deref.end_byte,
                                              f"'{sym.name}' dereferenced here")])

    # -- return ---------------------------------------------------------------------------

    def _return(self, n: Node) -> None:
        expr = next((c for c in n.named_children if c.type != "comment"), None)
        if expr is None:
            return
        ret = self.fm.return_type
        dst = ret if isinstance(ret, Pointer) else None
        if dst is None or not self.cert.type_certain(dst) or not self.cert.decl_certain(self.fm.node):
            return
        src = self.ptr(expr)
        if src is None:
            return
        why = self._mismatch(src, dst)
        if why is not None:
            self.add("CL101", expr, f"returning '{render(src)}' from a function with result type '{render(dst)}' "
                     f"changes address space of {why}")
            return
        if src.space is P and _addresses_local_object(self, expr):
            self.add("CL113", expr, f"returning '{render(src)}', the address of a '__private' variable of "
                     f"'{self.fm.name}', which dangles once the function returns")

    # -- comparison, subtraction, ?: --------------------------------------------------------

    def _binary(self, n: Node) -> None:
        op = self.text(n.child_by_field_name("operator"))
        if op not in _COMPARE and op != "-":
            return
        a = self.ptr(n.child_by_field_name("left"))
        b = self.ptr(n.child_by_field_name("right")) if a is not None else None
        if a is None or b is None or overlapping(a.space, b.space):
            return
        if op == "-":
            msg = (f"subtracting '{render(b)}' from '{render(a)}': the pointers point to non-overlapping "
                   f"address spaces '{a.space.spelling}' and '{b.space.spelling}'")
        else:
            msg = (f"comparison between '{render(a)}' and '{render(b)}', which point to non-overlapping "
                   f"address spaces '{a.space.spelling}' and '{b.space.spelling}'")
        self.add("CL101", n, msg)

    def _conditional(self, n: Node) -> None:
        a = self.ptr(n.child_by_field_name("consequence"))
        b = self.ptr(n.child_by_field_name("alternative")) if a is not None else None
        if a is None or b is None or overlapping(a.space, b.space):
            return
        self.add("CL101", n, f"conditional operator with arms of type '{render(a)}' and '{render(b)}', which point "
                 f"to non-overlapping address spaces '{a.space.spelling}' and '{b.space.spelling}'")

    def _cast(self, n: Node) -> None:
        value = n.child_by_field_name("value")
        tnode = n.child_by_field_name("type")
        # An ERROR beside the type (`(__attribute__((...)) int *)p`, which the grammar does not
        # read): the type read is not the one written.
        if value is None or tnode is None or n.has_error or not self.cert.decl_certain(tnode):
            return
        dst = pointer_of(self.fm.type_of(n))
        if dst is None or not self.cert.type_certain(dst):
            return
        src = self.ptr(value)
        if src is None or cast_allowed(src, dst):
            return
        self.add("CL102", n, f"casting '{render(src)}' to type '{render(dst)}' changes address space of pointer: "
                 f"'{src.space.spelling}' and '{dst.space.spelling}' are disjoint")


# -- small syntax helpers ---------------------------------------------------------------------


def _name_of(d: Node | None) -> Node | None:
    n = d
    for _ in range(30):
        if n is None:
            return None
        if n.type == "identifier":
            return n
        n = n.child_by_field_name("declarator") or next(
            (c for c in n.named_children if c.type not in ("type_qualifier", "attribute_specifier")), None)
    return None


def _param_node(item: Node, index: int) -> Node | None:
    stack = [item.child_by_field_name("declarator")] if item.type == "function_definition" else \
        [c for i, c in enumerate(item.children) if item.field_name_for_child(i) == "declarator"]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        if n.type == "function_declarator":
            plist = n.child_by_field_name("parameters")
            params = [c for c in plist.named_children if c.type == "parameter_declaration"] if plist else []
            return params[index] if index < len(params) else None
        stack.extend(n.named_children)
    return None


def _addresses_local_object(ch: ExpressionChecks, expr: Node) -> bool:
    """`&x` or an array `x` where x is a non-static local of the current function."""
    n = expr
    while n.type == "parenthesized_expression" and n.named_children:
        n = n.named_children[-1]
    if n.type == "pointer_expression" and ch.text(n.child_by_field_name("operator")) == "&":
        n = n.child_by_field_name("argument")
        while n is not None and n.type in ("subscript_expression", "field_expression", "parenthesized_expression"):
            if n.type == "field_expression" and ch.text(n.child_by_field_name("operator")) == "->":
                return False
            n = n.child_by_field_name("argument") if n.type != "parenthesized_expression" else \
                (n.named_children[-1] if n.named_children else None)
        if n is None or n.type != "identifier":
            return False
        sym = ch.fm.refs.get(n.id)
        return sym is not None and sym.kind is SymbolKind.LOCAL and not (sym.storage & {"static", "extern"})
    if n.type == "identifier":
        sym = ch.fm.refs.get(n.id)
        from cllint.analysis.model.types import Array

        return sym is not None and sym.kind is SymbolKind.LOCAL and isinstance(sym.type, Array) and \
            not (sym.storage & {"static", "extern"})
    return False


def _refs_after(fm: FunctionModel, sym: Symbol, offset: int) -> list[Node]:
    out = []
    body = fm.node.child_by_field_name("body")
    stack = [body] if body is not None else []
    while stack:
        n = stack.pop()
        if n.type == "identifier" and n.start_byte >= offset and fm.refs.get(n.id) is sym:
            out.append(n)
        stack.extend(n.children)
    return sorted(out, key=lambda n: n.start_byte)


def _is_null_test(ch: ExpressionChecks, use: Node) -> bool:
    p = use.parent
    while p is not None and p.type == "parenthesized_expression":
        if p.parent is not None and p.parent.type in ("if_statement", "while_statement", "do_statement",
                                                      "for_statement"):
            return True
        p = p.parent
    if p is None:
        return False
    if p.type == "condition_clause" or p.type in ("if_statement", "while_statement", "for_statement"):
        return True
    if p.type == "unary_expression" and ch.text(p.child_by_field_name("operator")) == "!":
        return True
    if p.type == "binary_expression" and ch.text(p.child_by_field_name("operator")) in ("==", "!=", "&&", "||"):
        return True
    if p.type == "conditional_expression" and p.child_by_field_name("condition") is not None and \
            p.child_by_field_name("condition").start_byte <= use.start_byte < \
            p.child_by_field_name("condition").end_byte:
        return True
    return False


def _is_deref(use: Node) -> bool:
    p = use.parent
    if p is None:
        return False
    if p.type == "pointer_expression":
        return p.children[0].type == "*" if p.children else False
    if p.type == "subscript_expression":
        return True
    if p.type == "field_expression":
        op = p.child_by_field_name("operator")
        return op is not None and op.type == "->"
    if p.type == "call_expression":
        return False
    return False


_ = Type
__all__ = ["ExpressionChecks"]
