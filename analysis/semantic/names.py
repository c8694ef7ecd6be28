"""Name resolution: uses of names the file never declares (CL010 variables, CL011 functions)
and names that look like macros the host defines at build time (CL012).

A name is left alone when anything else could declare it: a `#define` (its name, or a word of
any macro body, which may declare it when expanded), the target's or the configuration's macros,
an argument of a function-like macro (`FOR(i, n) { a[i] }`), a word of an included header
(`headers.py`: any arm, outside function bodies), any `#include` the model cannot read (missing,
computed), a compiler or vendor built-in, or an `#if` arm the preprocessor knows is compiled out.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from tree_sitter import Node

from cllint.analysis.annotations import declared_by_macros
from cllint.analysis.catalogue import catalogue
from cllint.analysis.features import EXTENSIONS
from cllint.analysis.fpga_dialects import DIALECT_FUNCTIONS, apint_declared
from cllint.analysis.model.overloads import resolve_builtin
from cllint.analysis.model.scopes import Scope

from .context import HEADER_MACROS, HEADER_PREFIXES, VENDOR_PREFIXES, Body
from cllint.analysis.lazy_re import lazy

# Parents under which an identifier is a use of a name (and which field of them, where the
# node holds names of other roles too).
_USE_PARENTS = frozenset({
    "binary_expression", "unary_expression", "assignment_expression", "argument_list", "subscript_expression",
    "parenthesized_expression", "conditional_expression", "return_statement", "expression_statement",
    "initializer_list", "pointer_expression", "update_expression", "comma_expression", "vector_literal",
    "switch_statement", "case_statement", "while_statement", "do_statement", "if_statement",
})  # (not macro_invocation: a statement macro's arguments are its own business)
_USE_FIELDS = {
    "init_declarator": "value", "call_expression": "function", "field_expression": "argument",
    "cast_expression": "value", "for_statement": None, "initializer_pair": "value",
    "sizeof_expression": "value",
}
# C's statement keywords: read as a name only where error recovery split a statement (text in
# an `#if` arm no build compiles before `return x;`); never an undeclared identifier.
_KEYWORDS = frozenset({"return", "if", "else", "for", "while", "do", "switch", "case", "default", "break",
                       "continue", "goto", "sizeof", "typedef", "struct", "union", "enum"})
# A name spelled like a macro: capitals, digits and underscores.
_MACRO_LIKE = lazy(r"^[A-Z][A-Z0-9_]*[A-Z0-9]$")


def _use_role(node: Node) -> str | None:
    """'call' for a callee, 'use' for another use of a name, None for anything else."""
    parent = node.parent
    if parent is None:
        return None
    k = parent.type
    if k in _USE_PARENTS:
        return "use"
    if k not in _USE_FIELDS:
        return None
    wanted = _USE_FIELDS[k]
    if k == "for_statement":  # (a macro standing for `for`, `unroll_for (...)`, is the macro's business)
        return "use" if node != parent.child_by_field_name("body") and node != parent.child_by_field_name("macro") \
            else None
    if parent.child_by_field_name(wanted) != node:
        return None
    return "call" if k == "call_expression" else "use"


def _is_builtin_function(name: str) -> bool:
    if catalogue().function(name) is not None or name.startswith(VENDOR_PREFIXES) or name in DIALECT_FUNCTIONS:
        return True
    return resolve_builtin(name, [], _ANY_TARGET) is not None  # convert_T, as_T


_MAX_NOTES = 8


def check_names(body: Body, identifiers: list[Node]) -> None:
    """One report per name and code in a body: its other uses are the report's notes (a
    host's `-D` name used 200 times is one finding, issue 29)."""
    fm, facts = body.fm, body.facts
    suggested: dict[tuple[str, int, str], str | None] = {}
    first: dict[tuple[str, str], tuple[Node, str, tuple[tuple[int, int, str], ...]]] = {}
    body_words = cache(lambda: frozenset(body.text(i) for i in identifiers))  # only if a paste asks
    type_words = cache(lambda: _type_words(body))  # only if a parenthesised name asks
    skipped_declared = cache(lambda: _skipped_declared(body))  # only if an unknown name asks
    more: dict[tuple[str, str], list[Node]] = {}
    quiet: dict[str, bool] = {}  # what the name alone decides, asked once per name (`_quiet_name`)
    for ident in identifiers:
        if ident.id in fm.refs:
            continue
        name = body.text(ident)
        q = quiet.get(name)
        if q is None:
            q = quiet[name] = _quiet_name(body, name, body_words)
        if q:
            continue
        role = _use_role(ident)
        if role is None or _on_directive_line(body.source, ident.start_byte):
            continue
        if role == "call" and (_is_builtin_function(name) or name in facts.unreadable_heads):
            continue
        if role == "use" and (catalogue().constant(name) is not None or catalogue().function(name) is not None
                              or name in EXTENSIONS):
            continue  # (an extension macro the target does not define: the target's business)
        if facts.unread_include:
            continue  # a header the model cannot read may declare it
        if role == "use" and _cast_shaped(ident) and name in type_words():
            continue  # `(float32)(0)` where the body writes `float32 acc`: a cast to a type it can't see
        if body.facts.view is not None and body.facts.view.active_at(ident.start_byte) is False:
            continue
        if role == "use" and name in skipped_declared():
            continue  # declared in an `#if` arm the parser skipped, which a build compiles
        if _seen(first, more, name, ident):
            continue
        # One answer per name, scope and role: a host's `-D` name used 200 times in a body
        # asked the same edit distances 200 times (each against every visible name).
        scope = fm.scope_at(ident.start_byte)
        key = (name, id(scope), role)
        if key not in suggested:
            from .suggest import closest  # (an unknown name: rare)

            suggested[key] = closest(name, _visible(body, scope, role))
        suggestion = suggested[key]
        if suggestion is None and _MACRO_LIKE.match(name):
            first[("CL012", name)] = (ident, f"'{name}' is not defined in this file: pass it with '-D' or "
                                             "'define = [...]' in the configuration", ())
            more[("CL012", name)] = []
            continue
        hint = f"; did you mean '{suggestion}'?" if suggestion else ""
        notes = ()
        target = fm.scope_at(ident.start_byte).lookup(suggestion) if suggestion else None
        if target is not None and target.node is not None:
            notes = body.declared_here(target.node, suggestion)
        code = "CL011" if role == "call" else "CL010"
        message = f"call to undeclared function '{name}'{hint}" if role == "call" else \
            f"use of undeclared identifier '{name}'{hint}"
        first[(code, name)] = (ident, message, notes)
        more[(code, name)] = []
    for key, (ident, message, notes) in first.items():
        rest = more[key]
        extra = tuple((n.start_byte, n.end_byte, f"'{key[1]}' also used here") for n in rest[:_MAX_NOTES])
        if len(rest) > _MAX_NOTES:
            extra += ((rest[_MAX_NOTES].start_byte, rest[_MAX_NOTES].end_byte,
                       f"and {len(rest) - _MAX_NOTES} more uses of '{key[1]}'"),)
        body.add(key[0], ident.start_byte, ident.end_byte, message, tuple(notes) + extra)


def _quiet_name(body: Body, name: str, body_words: Callable[[], frozenset[str]]) -> bool:
    """A name that is never reported in this body, wherever it stands: a macro, a macro's
    argument, a reserved or type name, one a header or a paste may declare."""
    facts = body.facts
    if facts.is_macro(name) or name in body.macro_args or name.startswith("__") or _type_name(body, name) or \
            name in _KEYWORDS:
        return True
    if facts.header_quiet(name) or (facts.view is not None and _pasted(facts, name, body_words)):
        return True  # (`GEN(float)` with `T add_##T(...)` defines `add_float`; `ARGS_25(state)` `state0`)
    if name in facts.macro_written_names:
        return True  # (`DEF_SUM(sum_global, __global)` writes `void sum_global(...)`)
    if name in HEADER_MACROS or name.startswith(HEADER_PREFIXES):
        return True
    declared = facts.uf_declared  # (read once per file: a search of the whole source)
    if declared is None:
        # (and Intel FPGA's `ap_int<N> x;`, which the parser reads as a comparison)
        declared = facts.uf_declared = declared_by_macros(body.source) | apint_declared(body.source)
    return name in declared  # GPUVerify's `DECLARE_UF_BINARY(A, ...)` declares A


# `int log_size = 0`, `global float *dst = b, *src`, `const int n;`: a type word, then a name
# and what may follow a declarator (statement keywords before a name are no type).
_DECLARED = lazy(rb"\b([A-Za-z_]\w*)[\s*]+([A-Za-z_]\w*)[ \t]*(?:=|;|,|\[|\))")
_NOT_TYPES = frozenset({b"return", b"else", b"case", b"goto", b"sizeof", b"do"})


def _skipped_declared(body: Body) -> frozenset[str]:
    """Names declared in the function's `#if` arms the parser skipped (it reads one arm of a
    group that splits a statement, a `for` header written per arm): any arm may be the one
    a build compiles, the skipped one included."""
    from cllint.analysis.model.walk import nodes_of_kinds

    out: set[str] = set()
    src = body.source
    for node in nodes_of_kinds(body.fm.node, frozenset({"preproc_skipped"})):
        for m in _DECLARED.finditer(src, node.start_byte, node.end_byte):
            if m.group(1) not in _NOT_TYPES:
                out.add(m.group(2).decode("utf-8", "replace"))
    return frozenset(out)


def _cast_shaped(ident: Node) -> bool:
    """`(T)(x)` or `(T)x`: the name alone in parentheses that something follows."""
    paren = ident.parent
    if paren is None or paren.type != "parenthesized_expression" or paren.named_child_count != 1:
        return False
    after = paren.next_sibling
    return (paren.parent is not None and paren.parent.type == "call_expression") or (
        after is not None and after.is_named)


def _type_words(body: Body) -> frozenset[str]:
    """Names the body writes where a type goes (`float32 acc;`, a parameter's type)."""
    out: set[str] = set()
    stack = [body.fm.node]
    while stack:
        node = stack.pop()
        if node.type == "type_identifier":
            out.add(body.text(node))
        elif node.child_count:
            stack.extend(node.children)
    return frozenset(out)


def _pasted(facts, name: str, body_words: Callable[[], frozenset[str]]) -> bool:  # noqa: ANN001 - FileFacts
    """A name the file's own macros could paste from a macro word or a word of this body (an
    argument: `uint2 ARGS_25(state);` with `x ## 0, x ## 1, ...` declares `state0`...)."""
    pastes = facts._own_pastes
    if not pastes.fragments and not pastes.free:
        return False
    return pastes.could_make(name, facts.macro_words) or (pastes.free and pastes.could_make(name, body_words()))


def _seen(first: dict, more: dict, name: str, ident: Node) -> bool:
    """True when `name` was reported in this body already (this use joins its notes)."""
    for code in ("CL010", "CL011", "CL012"):
        if (code, name) in first:
            more[(code, name)].append(ident)
            return True
    return False


def _type_name(body: Body, name: str) -> bool:
    """`sizeof(T)` with a typedef name reads as an expression in the tree."""
    return name in body.model.index.typedefs or name in body.fm._typedefs or name in body.model.index.tags


def _visible(body: Body, scope: Scope | None, role: str) -> list[str]:
    names: list[str] = []
    while scope is not None:
        names.extend(scope.symbols)
        scope = scope.parent
    index = body.model.index
    names.extend(index.functions)
    names.extend(index.globals)
    names.extend(index.enumerators)
    if body.facts.headers is not None:
        names.extend(body.facts.headers.declared)
    if role == "call":
        names.extend(body.catalogue_names)
    return names


def _on_directive_line(source: bytes, offset: int) -> bool:
    start = source.rfind(b"\n", 0, offset) + 1
    return source[start:offset].lstrip().startswith(b"#")


def _any_target():  # noqa: ANN202 - the conversions' names do not depend on the target
    from cllint.analysis.target import Target

    return Target.preset("CL3.0-all")


_ANY_TARGET = _any_target()
