"""What every semantic check reads about one function body: the model, the macros, and which
expressions the file shows completely (no macro, no unknown name, no unreadable type).

Silence first: a check asks `certain(expr)` before it judges a type, and `quiet_name(name)`
before it calls a name undeclared. Anything a macro, an included header or an `#if` arm could
change is left alone; headers the include resolver reads are read (`headers`), those it cannot
silence the name checks.
"""

from __future__ import annotations

from functools import cached_property

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.findings import Finding, FixPlan
from cllint.analysis.model import FunctionModel, SemanticModel, SymbolKind
from cllint.analysis.model.overloads import fitting_returns, parse_catalogue_type, resolve_builtin
from cllint.analysis.model.walk import head_end
from cllint.analysis.model.types import (
    Array,
    Enum_,
    Function,
    Opaque,
    Pointer,
    Scalar,
    Struct,
    Type,
    Unknown,
    Vector,
)

from ..database import current
from .headers import NO_HEADERS, Headers, Pastes, body_words, closure, pastes_of
from cllint.analysis.lazy_re import lazy

_MAX_USES = 8  # a report's "also used here" notes, as analysis/semantic/names.py shows them

_WORD = lazy(r"[A-Za-z_]\w*")
# `__attribute__((overloadable)) float f(`, `float __attribute__((overloadable)) f(`: the name.
_OVERLOADABLE_HEAD = lazy(rb"\b(?:__)?overloadable(?:__)?\b\s*\)\s*\)[^;{}()]*?\b([A-Za-z_]\w*)\s*\(")
_FACTS_MAX = 32
# By content (a keystroke in a body builds a new, moved view with the same macros): the words
# of every macro body are read once per change of directives, not once per keystroke
# (the database's "semantic.macro_facts").
# Functions of vendor extensions clang's header declares and the catalogue does not list.
# Macros clang's OpenCL headers define that the catalogue does not list as constants
# (opencl-c-base.h: image channel orders, event states, FP_ILOGB*); any `CLK_` name is the
# headers' (the Intel AVC families).
HEADER_MACROS = frozenset({
    "ATOMIC_FLAG_INIT", "ATOMIC_VAR_INIT", "CL_COMPLETE", "CL_QUEUED", "CL_RUNNING", "CL_SUBMITTED", "DBL_RADIX",
    "FP_ILOGB0", "FP_ILOGBNAN", "MAX_WORK_DIM", "NULL", "kernel_exec"})
HEADER_PREFIXES = ("CLK_",)
# (Not `cl_`: those are the spec's extension macros and types, which the target and the
# catalogue know; a `cl_malloc` is the file's to declare, as clang-19 says.)
VENDOR_PREFIXES = ("__", "amd_", "intel_", "arm_", "qcom_", "nv_", "img_", "mali_")


_HEAD_WORD = lazy(rb"([A-Za-z_]\w*)\s*\(")


class FileFacts:
    """Facts about the file every body shares: built once per lint."""

    model: SemanticModel
    view: object | None  # the PreprocessorView, None when linting without one
    macro_words: frozenset[str]  # macro names and words of macro bodies
    has_include: bool  # an #include not known to be compiled out
    headers: Headers | None  # what the included headers declare; None: one is unread

    __match_args__ = ("model", "view", "macro_words", "has_include", "headers")

    def __init__(
        self,
        model: SemanticModel,
        view: object | None,
        macro_words: frozenset[str] | None = None,
        has_include: bool = False,
        headers: Headers | None = NO_HEADERS,
    ) -> None:
        self.model = model
        self.view = view
        self.macro_words = frozenset() if macro_words is None else macro_words
        self.has_include = has_include
        self.headers = headers
        self.callee_unsure: dict[str, bool] = {}  # calls.py: a memo, by function name
        # names.py: what GPUVerify's `DECLARE_UF_*` lines and Intel FPGA's `ap_int<N> x` declare,
        # which the parser does not see as declarations; read once (None: not yet)
        self.uf_declared: frozenset[str] | None = None
        self._placeholder: str | None | bool = False  # False: not read yet

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"model={self.model!r}, " f"view={self.view!r}, "
                f"macro_words={self.macro_words!r}, " f"has_include={self.has_include!r}, "
                f"headers={self.headers!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.model, self.view, self.macro_words, self.has_include, self.headers)
        theirs = (other.model, other.view, other.macro_words, other.has_include, other.headers)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    @classmethod
    def of(cls, model: SemanticModel, view: object | None) -> FileFacts:
        if view is None:
            return cls(model, view)
        headers = closure(view)
        return cls(model, view, *_macro_facts(view, headers), headers)

    @property
    def unread_include(self) -> bool:
        """An #include whose header the model cannot read (missing, computed, broken): any
        name may be declared there. Likewise a file its host builds with `-D` names it computes
        (the host macro "*")."""
        return (self.has_include and self.headers is None) or "*" in getattr(self.view, "host_macros", ()) \
            or self.placeholder is not None

    @property
    def placeholder(self) -> str | None:
        """A word alone at file scope that the host replaces with code (placeholders.py): it
        may declare any name. Read once per lint."""
        if self._placeholder is False:
            from .placeholders import placeholder

            self._placeholder = placeholder(self.model.source, self._defined_macros)
        return self._placeholder  # type: ignore[return-value]

    def _defined_macros(self) -> frozenset[str]:
        if self.view is None:
            return frozenset()
        names = set(self.view.defined_names())
        names.update(self.view.env.macros)
        if self.headers is not None:
            names.update(self.headers.macro_words)
        return frozenset(names)

    def header_quiet(self, name: str) -> bool:
        """A word of an included header outside its function bodies, or a name a `##` of the
        headers' or the file's macros could paste: it may be declared."""
        if self.headers is None or not self.has_include:
            return False
        return self.headers.could_declare(name) or self._own_pastes.could_make(name, self.headers.quiet | self.macro_words)

    @cached_property
    def unreadable_heads(self) -> frozenset[str]:
        """Names written before `(` in the file-scope items the parser could not read (text a
        build never compiles, `#if (PAGES > 8)` / `ERROR: unsupported!` / `#endif`, broke the
        function after it): a function of that name may be declared there."""
        src = self.model.source
        out: set[str] = set()
        for item in self.model.tree.root_node.children:
            if not item.has_error:
                continue
            # (a function's body is left out: an edit there must not change what other bodies report)
            body = item.child_by_field_name("body") if item.type == "function_definition" else None
            end = body.start_byte if body is not None else item.end_byte
            for m in _HEAD_WORD.finditer(src, item.start_byte, end):
                out.add(m.group(1).decode())
                named = self._macro_made_name(m.group(1), m.end() - 1)
                if named is not None:  # `VARIANT(scale_, 3x)(int v)` names `scale_3x`
                    out.add(named)
        return frozenset(out)

    def _macro_made_name(self, word: bytes, paren: int) -> str | None:
        """The one identifier a call of the program's function-like macro `word` (its `(` at
        `paren`) expands to, or None."""
        view = self.view
        macro = view.macro_at(word.decode(), paren) if view is not None and hasattr(view, "macro_at") else None
        if macro is None or macro.params is None:
            return None
        from cllint.analysis.preprocessor.expr import tokenize  # (heads the parser could not read)

        src = self.model.source
        close = src.find(b")", paren)
        if close < 0 or b"(" in src[paren + 1:close]:
            return None
        expanded = view.expand(tokenize(src[paren - len(word):close + 1].decode("utf-8", "replace")), paren)
        if expanded and len(expanded) == 1 and _WORD.fullmatch(expanded[0].text):
            return expanded[0].text
        return None

    @cached_property
    def macro_written_names(self) -> frozenset[str]:
        """Names that file-scope calls of the program's function-like macros write as they are:
        `DEF_SUM(sum_global, __global)` with `#define DEF_SUM(name, tag) void name(tag int *p)
        {...}` defines `sum_global` (an argument whose parameter the body names unpasted)."""
        view = self.view
        macro_at = getattr(view, "macro_at", None)
        if macro_at is None:
            return frozenset()
        from cllint.analysis.preprocessor.expr import tokenize  # (files with such calls only)

        src = self.model.source
        out: set[str] = set()
        for item in self.model.tree.root_node.children:
            call = item.named_children[0] if item.type == "expression_statement" and item.named_child_count else item
            if call.type not in ("macro_invocation", "call_expression"):
                continue
            fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
            if fn is None or args is None or fn.type != "identifier":
                continue
            macro = macro_at(src[fn.start_byte:fn.end_byte].decode(), fn.start_byte)
            if macro is None or not macro.params:
                continue
            toks = tokenize(macro.body)
            written = {t.text for i, t in enumerate(toks) if t.kind == "id"
                       and (i == 0 or toks[i - 1].text not in ("#", "##"))
                       and (i + 1 == len(toks) or toks[i + 1].text != "##")}
            values = [c for c in args.named_children if c.type != "comment"]
            for param, arg in zip(macro.params, values):
                if arg.type == "identifier" and param in written:
                    out.add(src[arg.start_byte:arg.end_byte].decode())
        return frozenset(out)

    @cached_property
    def _own_pastes(self) -> Pastes:
        """The file's own macros' pastes (with headers, a pasted name may be declared there)."""
        view = self.view
        return pastes_of([(m.params, m.body) for m in view.macro_definitions()]) if view is not None else Pastes()

    @cached_property
    def overloaded(self) -> frozenset[str]:
        """Functions declared `__attribute__((overloadable))` (clang's OpenCL C overloading):
        a call's overload, and so its type and argument count, is not one declaration's."""
        from cllint.analysis.preprocessor.expanded_items import macro_written_overloads  # (asked of few files)

        from .build_overloads import build_overloads

        src = self.model.source
        written = macro_written_overloads(src, self.view)  # through macros: libclc's _CLC_OVERLOAD
        written |= build_overloads(self)  # through the build's macros (-D, force-included headers)
        if b"overloadable" not in src:
            return written
        return written | frozenset(m.group(1).decode() for m in _OVERLOADABLE_HEAD.finditer(src))

    def header_function(self, name: str) -> bool:
        """A function the headers declare, which no macro stands for."""
        return self.headers is not None and name in self.headers.functions and name not in self.macro_words

    def is_macro(self, name: str) -> bool:
        return name in self.macro_words

    def macro_arity(self, name: str) -> tuple[int, bool] | None:
        """(parameters, variadic) of a function-like macro every definition of which that may
        be in force agrees on; None for an object-like one, an unknown name, or definitions
        (in `#if` arms, or redefined) that differ."""
        return self._macro_arities.get(name)

    @cached_property
    def _macro_arities(self) -> dict[str, tuple[int, bool] | None]:
        seen: dict[str, set[tuple[int, bool] | None]] = {}
        if self.view is not None:
            for m in self.view.macro_definitions():
                seen.setdefault(m.name, set()).add(None if m.params is None else (len(m.params), m.variadic))
        return {name: next(iter(a)) if len(a) == 1 else None for name, a in seen.items()}

    def head_has_macro(self, definition: Node | None) -> bool:
        """A macro among the words of a function's head (`KERN_ATTR_BASIC ()` parameters,
        `TEMPLATE(name, T)` names): its parameters and return type are not the file's to tell."""
        if definition is None:
            return True
        end = head_end(definition)
        head = self.model.source[definition.start_byte:end].decode("utf-8", "replace")
        # A syntax error in the head only: one in the body leaves the head readable, and a
        # caller's findings must not depend on the callee's body (analysis/incremental.py).
        return any(w in self.macro_words for w in _WORD.findall(head)) or \
            any(c.has_error for c in definition.children if c.end_byte <= end)


def _macro_facts(view, headers: Headers | None) -> tuple[frozenset[str], bool]:  # noqa: ANN001 - a PreprocessorView
    names = frozenset(view.defined_names())
    includes = tuple((ref.path, ref.resolved, ref.active) for ref in view.includes)
    # Computed includes (`#include M2S(PATH/x.h)`) are directives the view does not follow.
    computed = sum(1 for d in getattr(view, "directives", ()) if d.kind == "include" and d.path is None)
    includes += (("<computed>", None, None),) * computed
    # The sources the program reads first (the view's prelude) are headers of the file too.
    includes += tuple(("<prelude>", d.path, True) for d in getattr(view, "directives", ()) if d.keyword == "prelude")
    host = getattr(view, "host_macros", frozenset())
    key = (view.macro_state_at(1 << 62), names, frozenset(view.env.macros), includes,
           headers.key if headers is not None else None, host)
    memo = current().table("semantic.macro_facts", _FACTS_MAX)
    found = memo.get(key)
    if found is None:
        words = set(names)
        words.update(view.env.macros)
        words.update(host)  # `-D` names the host passes, values unknown
        for m in view.macro_definitions():
            words.update(body_words(m.params, m.body))
        if headers is not None:  # every arm of every header, those the view leaves out included
            words.update(headers.macro_words)
        # Any #include, even in an arm this configuration leaves out: the file is built with
        # headers (hashcat's `#ifdef KERNEL_STATIC #include ...`), whose names it may use.
        found = memo.put(key, (frozenset(words), bool(includes)))
    return found


class Body:
    """One function definition under check, and the findings made on it."""

    def __init__(self, facts: FileFacts, fm: FunctionModel, out: list[Finding]) -> None:
        self.facts = facts
        self.fm = fm
        self.model = facts.model
        self.source = facts.model.source
        self.out = out
        self.macro_args: set[str] = set()  # names passed to function-like macros: they may declare them
        self._certain: dict[int, bool] = {}
        # Expressions whose every node `_is_certain` has read and passed (their own type aside):
        # an enclosing expression's walk skips them instead of reading them again.
        self._clean: set[int] = set()
        self.macro_marks: list[int] | None = None  # starts of macro names and directives (calls.py)
        # The body block's nodes of the semantic family's kinds, as `_check_body` found them
        # (identifiers and type names among them), and the block: `calls.py` reads its marks off them.
        self.found: list[Node] | None = None
        self.block: Node | None = None
        # (code, what) -> index in `out` of the body's first report of it (`add_once`)
        self._once: dict[tuple[str, str], int] = {}

    def text(self, node: Node) -> str:
        return self.source[node.start_byte:node.end_byte].decode("utf-8", "replace")

    def add(self, code: str, start: int, end: int, message: str,
            notes: tuple[tuple[int, int, str], ...] = (), fix: FixPlan | None = None) -> None:
        view = self.facts.view
        if view is not None and view.active_at(start) is False:
            return
        self.out.append(Finding(code, start, end, message, notes, fix))

    def seen_once(self, code: str, what: str, start: int, end: int, name: str) -> bool:
        """Whether this body already reported (code, what): then this use becomes that report's
        note (issue 29 item 6, one report per rule, name and function) and True is returned."""
        at = self._once.get((code, what))
        if at is None:
            return False
        first = self.out[at]
        uses = sum(1 for n in first.notes if n[2].endswith("also used here"))
        if uses < _MAX_USES:
            self.out[at] = Finding(first.code, first.start, first.end, first.message,
                                   (*first.notes, (start, end, f"'{name}' also used here")), first.fix)
        return True

    def add_once(self, code: str, what: str, start: int, end: int, message: str) -> None:
        """`add`, remembering the report as the body's one of (code, what) for `seen_once`."""
        before = len(self.out)
        self.add(code, start, end, message)
        if len(self.out) > before:
            self._once[(code, what)] = before

    def declared_here(self, node: Node | None, name: str) -> tuple[tuple[int, int, str], ...]:
        return ((node.start_byte, node.end_byte, f"'{name}' declared here"),) if node is not None else ()

    # -- certainty -------------------------------------------------------------------------

    def certain(self, expr: Node) -> bool:
        got = self._certain.get(expr.id)
        if got is None:
            got = self._certain[expr.id] = self._is_certain(expr)
        return got

    def _is_certain(self, expr: Node) -> bool:
        """The expression's type is the file's to tell: every name in it resolves to a
        declaration or a built-in constant, no macro stands in it, every built-in call picks
        one return type whatever the overload, and nothing in it is unreadable."""
        stack = [expr]
        clean = self._clean
        while stack:
            n = stack.pop()
            if n.id in clean:
                continue  # read before, as part of another expression or on its own: nothing in it fails
            k = n.type
            if k == "ERROR" or n.is_missing or n.has_error:
                return False
            if k == "identifier":
                name = self.text(n)
                sym = self.fm.refs.get(n.id)
                if sym is None or self.facts.is_macro(name):
                    return False
                continue
            if k == "type_identifier":
                if self.facts.is_macro(self.text(n)):
                    return False
                continue
            if k == "call_expression" and not self._call_certain(n):
                return False
            if k in ("string_literal", "concatenated_string", "compound_literal_expression", "initializer_list",
                     "comma_expression", "gnu_asm_expression", "sizeof_expression", "alignof_expression",
                     "offsetof_expression", "block_literal", "generic_expression"):
                return False
            stack.extend(n.named_children)
        clean.add(expr.id)
        return known(self.fm.type_of(expr))

    def _call_certain(self, call: Node) -> bool:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "identifier":
            return False
        sym = self.fm.refs.get(fn.id)
        name = self.text(fn)
        if sym is not None and sym.kind is not SymbolKind.BUILTIN:
            return isinstance(sym.type, Function) and known(sym.type.ret) and name not in self.facts.overloaded
        args = call.child_by_field_name("arguments")
        types = [self.fm.type_of(a) for a in args.named_children if a.type != "comment"] if args else []
        if not all(known(t) for t in types):
            return False
        res = resolve_builtin(name, types, self.model.target)
        if res is None:
            return False
        if res.overload is None:
            return res.builtin.category == "conversion"  # convert_T / as_T: the name tells
        if _exact(res.overload, types):
            return True  # `round(value)` with `float value`: the overload taking exactly these
        fits = fitting_returns(name, types, self.model.target)
        return len(fits) == 1 and "gentype" not in next(iter(fits))

    @cached_property
    def catalogue_names(self) -> list[str]:
        return list(catalogue().functions)


def _exact(overload, types: list[Type]) -> bool:  # noqa: ANN001 - a catalogue Overload
    """Every argument is a scalar or vector of exactly the overload's parameter type (and its
    return type is spelled out): overload resolution picks it before any conversion."""
    if "gentype" in overload.returns or len(overload.params) != len(types):
        return False
    for p, t in zip(overload.params, types):
        if not isinstance(t, (Scalar, Vector)) or parse_catalogue_type(p.type) != t:
            return False
    return True


def known(t: Type) -> bool:
    """A type with nothing unknown in it."""
    if isinstance(t, Unknown):
        return False
    if isinstance(t, Pointer):
        return known(t.pointee)
    if isinstance(t, Array):
        return known(t.elem)
    if isinstance(t, Function):
        return known(t.ret) and all(known(p) for p in t.params)
    return isinstance(t, (Scalar, Vector, Struct, Enum_, Opaque))

