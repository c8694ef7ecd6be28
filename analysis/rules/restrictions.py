"""CL4xx: OpenCL C's restrictions on C (6.11) that are not about address spaces.

Function pointers, variadic functions, bit-fields, variable length arrays, `auto`/`register`,
a function named `main` (all rejected by the compiler), and recursion, which compilers accept
and devices then fail to build or run. One scan per context, shared by the rules. Precision
first: a size or a callee the file does not fully show (a macro, an unknown name) is never
reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.database import current
from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.enqueued_blocks import in_enqueued_block
from cllint.analysis.findings import Finding
from cllint.analysis.model import FunctionModel, SemanticModel, SymbolKind
from cllint.analysis.model.types import AddressSpace
from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.rules._findings import cached, diagnostics
from cllint.analysis.rules._model import RESTRICTION_KINDS as KINDS
from cllint.analysis.rules._model import active, kind_index, model_for
from cllint.analysis.rules.base import Rule, RuleContext
from cllint.analysis.toplevel import items_of

_PARENS = frozenset({"parenthesized_declarator", "abstract_parenthesized_declarator", "attributed_declarator"})
_POINTERS = frozenset({"pointer_declarator", "abstract_pointer_declarator"})
_VARIADIC_OK = frozenset({"printf", "enqueue_kernel"})
_UNEVALUATED = frozenset({"sizeof_expression", "alignof_expression", "vec_step_expression"})
_NO_STORAGE = frozenset({"auto", "register"})


def _macro_in_force(ctx: RuleContext, word: str, offset: int) -> bool:
    view = ctx.preprocessor
    return view is not None and view.macro_at(word, offset) is not None


def _text(source: bytes, n: Node) -> str:
    return source[n.start_byte:n.end_byte].decode("utf-8", "replace")


def _unwrap(n: Node | None) -> Node | None:
    """The declarator inside `( ... )` and attribute wrappers."""
    while n is not None and n.type in _PARENS:
        inner = [c for c in n.named_children if c.type not in ("attribute_specifier", "attribute_declaration")]
        n = inner[0] if inner else None
    return n



def _misread_statement_macro(array: Node, fm: FunctionModel) -> bool:
    """`GEN(cand)` with no `;`, then `total[gid] = v;`: the grammar reads one declaration of an
    array `total[gid]` of type `GEN(cand)`. It is no declaration when a directive sits inside
    it (the macro in an `#ifdef` arm, the assignment after `#endif`) or the macro's "type"
    argument names a variable or parameter of the function."""
    decl = array.parent
    while decl is not None and decl.type not in ("declaration", "compound_statement"):
        decl = decl.parent
    if decl is None or decl.type != "declaration":
        return False
    spec = decl.child_by_field_name("type")
    if spec is None or spec.type != "macro_type_specifier":
        return False
    if any(c.type.startswith("preproc") for c in decl.children):
        return True
    scope = fm.scope_at(spec.start_byte)
    for c in spec.named_children:
        if c.type == "type_descriptor" and c.named_child_count == 1 and c.named_children[0].type == "type_identifier":
            sym = scope.lookup((c.named_children[0].text or b"").decode("utf-8", "replace"))
            if sym is not None and sym.kind in (SymbolKind.PARAMETER, SymbolKind.LOCAL):
                return True
    return False

class _Scan:
    def __init__(self, ctx: RuleContext) -> None:
        self.ctx = ctx
        self.src = ctx.source
        self.out: list[Finding] = []
        self._model: SemanticModel | None = None

    @property
    def model(self) -> SemanticModel:
        if self._model is None:
            self._model = model_for(self.ctx)
        return self._model

    def add(self, code: str, start: int, end: int, message: str,
            notes: tuple[tuple[int, int, str], ...] = ()) -> None:
        if active(self.ctx, start):
            self.out.append(Finding(code, start, end, message, notes))

    def run(self) -> list[Finding]:
        ctx = self.ctx
        root = ctx.tree.root_node
        index = kind_index(ctx)
        found = index.under(root, KINDS) if index is not None else nodes_of_kinds(root, KINDS, ranges=ctx.focus)
        for n in found:
            k = n.type
            if k in ("function_declarator", "abstract_function_declarator"):
                self._function_declarator(n)
            elif k == "bitfield_clause":
                self._bitfield(n)
            elif k == "storage_class_specifier":
                word = _text(self.src, n).strip()
                # (`#define auto __auto_type`: the program's macro, not the storage class)
                if word in _NO_STORAGE and not _macro_in_force(ctx, word, n.start_byte):
                    self.add("CL405", n.start_byte, n.end_byte,
                             f"the '{word}' storage class is not supported in OpenCL C")
            elif k == "array_declarator":
                self._array(n)
        if b"main" in self.src:
            self._main()
        self._function_values()
        self._recursion()
        return self.out

    # -- declarators ----------------------------------------------------------------------

    def _function_declarator(self, n: Node) -> None:
        inner = _unwrap(n.child_by_field_name("declarator"))
        if inner is not None and inner.type in _POINTERS:
            # The `*`, where clang points: `int (*f)(int)`, `(int (*)(int)) p`.
            self.add("CL401", inner.start_byte, inner.start_byte + 1, "pointers to functions are not allowed in OpenCL C")
            return
        params = n.child_by_field_name("parameters")
        if inner is None or inner.type != "identifier" or params is None:
            return
        if any(c.type == "variadic_parameter" for c in params.children):
            name = _text(self.src, inner)
            if name not in _VARIADIC_OK:
                self.add("CL402", inner.start_byte, inner.end_byte,
                         f"function '{name}' takes variable arguments ('...'): OpenCL C allows them only "
                         "for 'printf' and 'enqueue_kernel'")

    def _bitfield(self, n: Node) -> None:
        field = n.parent
        decl = field.child_by_field_name("declarator") if field is not None else None
        start = decl.start_byte if decl is not None else n.start_byte
        name = f" '{_text(self.src, decl)}'" if decl is not None and decl.type == "field_identifier" else ""
        self.add("CL403", start, n.end_byte, f"bit-field{name} is not supported in OpenCL C")

    def _array(self, n: Node) -> None:
        size = n.child_by_field_name("size")
        if size is None or size.type == "number_literal":
            return
        fm = self.model.enclosing_function(n)
        if fm is None:  # program scope and fields: C requires constants there anyway
            return
        if _misread_statement_macro(n, fm):
            return
        for ident in _evaluated_identifiers(size):
            sym = fm.refs.get(ident.id)
            if sym is None:
                continue
            # A parameter, or a variable that is not `const`: no compile-time constant. (clang
            # folds `const int n = 4;` sizes; a `const` whose value it cannot fold is left alone.)
            if sym.kind is SymbolKind.PARAMETER or (
                    sym.kind in (SymbolKind.LOCAL, SymbolKind.GLOBAL) and "const" not in sym.cv
                    and sym.space is not AddressSpace.CONSTANT):
                what = "a parameter" if sym.kind is SymbolKind.PARAMETER else "a variable"
                notes = ((sym.node.start_byte, sym.node.end_byte, f"'{sym.name}' declared here"),) \
                    if sym.node is not None else ()
                self.add("CL404", size.start_byte, size.end_byte,
                         f"variable length arrays are not supported in OpenCL C: the size "
                         f"'{_text(self.src, size)}' reads '{sym.name}', {what}", notes)
                return

    def _main(self) -> None:
        info = self.model.index.functions.get("main")
        if info is None or info.symbol.node is None:
            return
        node = info.symbol.node
        if self.ctx.in_focus(node):
            self.add("CL406", node.start_byte, node.end_byte, "a function cannot be called 'main' in OpenCL C")

    # -- function names used as values -------------------------------------------------------

    def _function_values(self) -> None:
        """`&f` and `f` not called: a pointer to a function, which OpenCL C does not have."""
        if not self.model.index.functions:
            return
        for definition in self.model.definitions_in(self.ctx.focus):
            body = definition.child_by_field_name("body")
            if body is None:
                continue
            fm = self.model.function_at_node(definition)
            if not fm.names_a_function_uncalled():  # then no need to find where it stands
                continue
            for ident in nodes_of_kinds(body, frozenset({"identifier"})):
                sym = fm.refs.get(ident.id)
                if sym is None or sym.kind is not SymbolKind.FUNCTION:
                    continue
                outer = ident
                parent = ident.parent
                if parent is not None and parent.type == "function_declarator":
                    continue  # a prototype's own name (`uint2 ARGS_25(state);` reads as one)
                while parent is not None and parent.type == "parenthesized_expression":
                    outer, parent = parent, parent.parent
                if parent is not None and parent.type == "call_expression" and \
                        parent.child_by_field_name("function") == outer:
                    continue
                if self._macro_keeps_no_value(fm, outer):
                    continue
                from cllint.analysis.preprocessor.empty_macros import called_through_empty_macros  # (rare)

                if called_through_empty_macros(self.src, self.ctx.preprocessor, ident.end_byte):
                    continue  # `f TARGS (x)` with `#define TARGS`: a call once expanded
                if parent is not None and parent.type == "pointer_expression" and \
                        _text(self.src, parent.child_by_field_name("operator") or parent)[:1] == "&":
                    self.add("CL401", parent.start_byte, parent.end_byte,
                             f"taking the address of function '{sym.name}' is not allowed in OpenCL C")
                else:
                    self.add("CL401", ident.start_byte, ident.end_byte,
                             f"function '{sym.name}' used as a value: pointers to functions are not allowed "
                             "in OpenCL C")

    def _macro_keeps_no_value(self, fm: FunctionModel, arg: Node) -> bool:
        """`CALL(sq, x)`: an argument of a function-like macro that pastes, stringifies or calls
        it (`sq##_impl(x)`), or of a macro the file does not define (its body is unknown)."""
        args = arg.parent
        call = args.parent if args is not None and args.type == "argument_list" else None
        fn = call.child_by_field_name("function") if call is not None else None
        if fn is None or fn.type != "identifier":
            return False
        name = _text(self.src, fn)
        index = [c.id for c in args.named_children if c.type != "comment"].index(arg.id)
        from cllint.analysis.preprocessor.macro_args import uses_argument_as_value  # (calls of macros only)

        value = uses_argument_as_value(self.ctx.preprocessor, name, index, call.start_byte)
        if value is None:  # no macro of the file's: a function (the name is a value), or unknown
            return fm.refs.get(fn.id) is None and catalogue().function(name) is None
        return not value

    # -- recursion ------------------------------------------------------------------------------

    def _may_call(self, defined: dict[str, Node]) -> dict[str, set[str]]:
        """Who may call whom among the file's defined functions. A full lint has built every
        function's model already (the address-space checks read them all): their calls are
        exact. An edit's run has built few: a name of a defined function followed by `(` in
        a body is the cheap over-approximation, confirmed on the models of a cycle's members."""
        if self.ctx.focus is None:
            return {name: {n for _, n in _function_calls(self.model.function_at_node(d))} for name, d in defined.items()}
        names = frozenset(defined)
        # No word boundary before the name: error recovery may split `0mid(` into a number and
        # a call. Comments may stand before the `(`. Over-approximate: the models confirm.
        # One pattern per set of names (the database's "restrictions.call_pattern"): a
        # keystroke leaves the names as they were, and escaping and sorting 67 cost ~0.1 ms.
        # The set of names kept with its pattern is the one every keystroke's run compares by
        # identity on the items below.
        patterns = current().table("restrictions.call_pattern", _PATTERNS_LIMIT)
        got = patterns.get(names)
        if got is None:
            got = patterns.put(names, (names, re.compile(
                rb"(" + b"|".join(re.escape(n.encode()) for n in sorted(names, key=len, reverse=True))
                + rb")(?:\s|/\*.*?\*/)*\(", re.S)))
        names, pattern = got
        may: dict[str, set[str]] = {}
        memo = current().table("restrictions.may_call", _MAY_CALL_LIMIT)
        # A definition that is an item of the file (most) keeps its answer on it, for the same
        # names: a keystroke neither slices nor hashes the other bodies (~0.1 ms on 90 KB).
        items = items_of(self.ctx.tree, self.src, self.ctx.file)
        at = {start: k for k, start in enumerate(items.starts)}
        for name, d in defined.items():
            k = at.get(d.start_byte)
            item = items.items[k] if k is not None and items.nodes[k] == d else None
            kept = item.facts.get("restrictions.may_call") if item is not None else None
            if kept is not None and kept[0] is names:
                may[name] = kept[1]
                continue
            body = d.child_by_field_name("body")
            if body is None:
                continue
            # Per body text and set of names: an edit changes one body, the rest are reused.
            key = (self.src[body.start_byte:body.end_byte], names)
            found = memo.get(key)
            if found is None:
                found = memo.put(key, {m.group(1).decode() for m in pattern.finditer(key[0])})
            may[name] = found
            if item is not None:
                item.facts["restrictions.may_call"] = (names, found)
        return may

    def _recursion(self) -> None:
        """Calls inside a cycle of the file's call graph. Edges come from the models' calls
        resolved to the file's own functions (a local or macro of the same name is not one)."""
        index = self.model.index
        defined = {name: info.definition for name, info in index.functions.items() if info.definition is not None}
        if not defined:
            return
        cyclic = _cycles_kept(self._may_call(defined))
        if not cyclic:
            return
        calls = {name: [(c, n) for c, n in _function_calls(self.model.function_at_node(defined[name])) if n in cyclic]
                 for name in cyclic}
        graph = {name: {c for _, c in edges} for name, edges in calls.items()}
        for name in _in_cycles(graph):
            if not self.ctx.in_focus(defined[name]):
                continue
            for callee, target in calls.get(name, ()):
                path = _path(graph, target, name)
                if path is None:
                    continue
                if target == name:
                    if name in self._overloaded() and not self._same_overload(name, callee):
                        continue  # another overload of the name (libclc's `clz(char)` calls `clz(ushort)`)
                    message = f"'{name}' calls itself: recursion is not supported in OpenCL C"
                    notes: tuple[tuple[int, int, str], ...] = ()
                else:
                    chain = " -> ".join(f"'{p}'" for p in [name, *path])
                    message = f"call to '{target}' leads back to '{name}' ({chain}): recursion is not supported in OpenCL C"
                    first = index.functions[target].symbol.node
                    notes = ((first.start_byte, first.end_byte, f"'{target}' defined here"),) if first is not None else ()
                self.add("CL407", callee.start_byte, callee.end_byte, message, notes)


    def _overloaded(self) -> frozenset[str]:
        """Names declared `overloadable` (directly or through the program's macros)."""
        from cllint.analysis.semantic.context import FileFacts  # (imported late: the semantic layer imports rules)

        return FileFacts.of(self.model, self.ctx.preprocessor).overloaded

    def _same_overload(self, name: str, callee: Node) -> bool:
        """Whether a call of an overloaded function's own name certainly picks the function
        itself: every argument's type is the parameter's."""
        fm = self.model.enclosing_function(callee)
        call = callee.parent
        args = call.child_by_field_name("arguments") if call is not None else None
        if fm is None or fm.name != name or args is None:
            return False
        params = [p.type for p in fm.params]
        values = [a for a in args.named_children if a.type != "comment"]
        if len(values) != len(params):
            return False
        from cllint.analysis.semantic.context import known

        return all(known(p) and self.model.type_of(v) == p for v, p in zip(values, params))


# Calls each body may make, by (body text, names): the database's "restrictions.may_call".
_MAY_CALL_LIMIT = 2048
_PATTERNS_LIMIT = 64
# The last call graph and its cycles, by the set of defined names: "restrictions.cycles".
_CYCLES_LIMIT = 16


def _cycles_kept(graph: dict[str, set[str]]) -> frozenset[str]:
    """`_in_cycles(graph)`, kept with its graph: a keystroke's graph is mostly the last one
    (same bodies, same answers), which comparing costs far less than searching (~0.3 ms of
    Python over darktable's 67 functions, issue 32)."""
    table = current().table("restrictions.cycles", _CYCLES_LIMIT)
    key = frozenset(graph)
    last = table.get(key)
    if last is not None and last[0] == graph:
        return last[1]
    found = frozenset(_in_cycles(graph))
    table.put(key, ({name: frozenset(calls) for name, calls in graph.items()}, found))
    return found


def _function_calls(fm: FunctionModel) -> Iterator[tuple[Node, str]]:
    """(callee name node, function name) of each call of one of the file's functions."""
    for call in fm.calls:
        callee = call.child_by_field_name("function")
        sym = fm.refs.get(callee.id) if callee is not None else None
        if sym is not None and sym.kind is SymbolKind.FUNCTION and not in_enqueued_block(call):
            yield callee, sym.name  # (a call in a block enqueue_kernel takes is a child launch's)


def _evaluated_identifiers(expr: Node) -> Iterator[Node]:
    """Identifiers of an expression whose values are read (not under sizeof and the like)."""
    stack = [expr]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            yield n
        elif n.type not in _UNEVALUATED:
            stack.extend(n.named_children)


def _in_cycles(graph: dict[str, set[str]]) -> set[str]:
    """Names on a cycle of `graph` (a self-call included): Tarjan's strongly connected components."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: set[str] = set()
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on.add(start)
        while work:
            node, it = work[-1]
            nxt = next(it, None)
            if nxt is not None:
                if nxt not in graph and nxt not in index:
                    continue
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on.add(nxt)
                    work.append((nxt, iter(sorted(graph.get(nxt, ())))))
                elif nxt in on:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1 or node in graph.get(node, ()):
                    out.update(comp)
    return out


def _path(graph: dict[str, set[str]], start: str, goal: str) -> list[str] | None:
    """The shortest call chain from `start` to `goal` (both included), by breadth-first search."""
    previous: dict[str, str | None] = {start: None}
    queue = [start]
    for node in queue:
        if node == goal:
            chain = [node]
            while previous[chain[-1]] is not None:
                chain.append(previous[chain[-1]])  # type: ignore[arg-type]
            return chain[::-1]
        for nxt in sorted(graph.get(node, ())):
            if nxt not in previous:
                previous[nxt] = node
                queue.append(nxt)
    return None


def _findings(ctx: RuleContext) -> list[Finding]:
    return cached(ctx, "_cl4xx", lambda: _Scan(ctx).run())


class _RestrictionRule(Rule):
    severity = Severity.ERROR
    spec_section = "restrictions"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return diagnostics(self, ctx, _findings(ctx))


class FunctionPointer(_RestrictionRule):
    """## What it does
    Reports pointers to functions: declarators such as `int (*f)(int)`, casts to one, and a
    function's name used as a value (`&f`, or `f` passed or assigned without a call).

    ## Why is this bad?
    OpenCL C has no pointers to functions: devices compile every call to a known function.
    The compiler rejects the program.

    ## Example
    ```c
    float twice(float x) { return 2.0f * x; }
    void apply(global float *a, float (*op)(float)) { a[0] = op(a[0]); }
    ```

    ## Use instead
    ```c
    float twice(float x) { return 2.0f * x; }
    void apply(global float *a) { a[0] = twice(a[0]); }
    ```
    A `switch` on an integer selects between a few functions where the choice is made at run time.

    ## OpenCL spec
    6.11 Restrictions (a): pointers to functions are not allowed.
    """

    code = "CL401"
    name = "function-pointer"


class VariadicFunction(_RestrictionRule):
    """## What it does
    Reports a function declared with variable arguments (`...`) other than `printf` and
    `enqueue_kernel`.

    ## Why is this bad?
    OpenCL C has no variadic functions of its own: the compiler rejects the declaration.

    ## Example
    ```c
    int sum(int n, ...);
    ```

    ## Use instead
    ```c
    int sum4(int a, int b, int c, int d);
    ```

    ## OpenCL spec
    6.11 Restrictions (e): variadic functions are not supported, with the exception of
    `printf` and `enqueue_kernel`.
    """

    code = "CL402"
    name = "variadic-function"


class BitField(_RestrictionRule):
    """## What it does
    Reports bit-field members of structures and unions (`int flags : 3;`).

    ## Why is this bad?
    OpenCL C does not support bit-fields: the compiler rejects the structure. Their layout is
    implementation-defined in C, so it could not be shared with the host either.

    ## Example
    ```c
    typedef struct { uint kind : 4; uint count : 28; } packed_t;
    ```

    ## Use instead
    ```c
    typedef struct { uint bits; } packed_t;  /* kind = bits & 0xf; count = bits >> 4 */
    ```

    ## OpenCL spec
    6.11 Restrictions (c): bit-field struct members are not supported.
    """

    code = "CL403"
    name = "bit-field"


class VariableLengthArray(_RestrictionRule):
    """## What it does
    Reports an array whose size reads a parameter or a non-`const` variable: a variable length
    array.

    ## Why is this bad?
    OpenCL C does not support variable length arrays: private memory is sized when the
    kernel is compiled. The compiler rejects the declaration.

    ## Example
    ```c
    kernel void k(global float *a, int n) {
        float tmp[n];
    }
    ```

    ## Use instead
    ```c
    #define MAX_N 64
    kernel void k(global float *a, int n) {
        float tmp[MAX_N];  /* and check n <= MAX_N */
    }
    ```

    ## OpenCL spec
    6.11 Restrictions (d): variable length arrays and structures with flexible (or unsized)
    arrays are not supported.
    """

    code = "CL404"
    name = "variable-length-array"


class UnsupportedStorageClass(_RestrictionRule):
    """## What it does
    Reports the `auto` and `register` storage-class specifiers.

    ## Why is this bad?
    OpenCL C does not support them: the compiler rejects the declaration. Local variables are
    automatic anyway, and register allocation is the compiler's.

    ## Example
    ```c
    kernel void k(global int *a) { register int i = 0; a[i] = 1; }
    ```

    ## Use instead
    ```c
    kernel void k(global int *a) { int i = 0; a[i] = 1; }
    ```

    ## OpenCL spec
    6.11 Restrictions (i): the `auto` and `register` storage-class specifiers are not supported.
    """

    code = "CL405"
    name = "unsupported-storage-class"


class FunctionNamedMain(_RestrictionRule):
    """## What it does
    Reports a function named `main`.

    ## Why is this bad?
    An OpenCL program has no entry point of that name: the host enqueues kernels by name, and
    the compiler rejects a function called `main`.

    ## Example
    ```c
    kernel void main(global float *a) { a[0] = 0.0f; }
    ```

    ## Use instead
    ```c
    kernel void clear_first(global float *a) { a[0] = 0.0f; }
    ```

    ## OpenCL spec
    6.11 Restrictions: a function in an OpenCL program cannot be called `main`.
    """

    code = "CL406"
    name = "function-named-main"


class Recursion(_RestrictionRule):
    """## What it does
    Reports calls that make a function call itself, directly or through other functions of the
    file. The message shows the chain, and a note points at the callee.

    ## Why is this bad?
    OpenCL C does not support recursion. Compilers accept the source, but devices inline
    every call and keep no call stack: the program fails to build on most GPUs, or overflows
    a small private stack at run time.

    ## Example
    ```c
    int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
    ```

    ## Use instead
    ```c
    int fact(int n) { int r = 1; for (int i = 2; i <= n; i++) r *= i; return r; }
    ```

    ## OpenCL spec
    6.11 Restrictions (k): recursion is not supported.
    """

    code = "CL407"
    name = "recursion"
    severity = Severity.WARNING


RULES = [FunctionPointer, VariadicFunction, BitField, VariableLengthArray, UnsupportedStorageClass,
         FunctionNamedMain, Recursion]
