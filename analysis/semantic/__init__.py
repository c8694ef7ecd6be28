"""Compiler-grade semantic checks (CL010-CL049): the everyday errors clang reports, read off
the semantic model as you type.

`findings(model, view, in_focus)` checks every function definition `in_focus` accepts; each
body's findings depend on its own text and the file's declarations only, so the incremental
driver can keep the other bodies' findings. Modules: `names` (undeclared names, host macros),
`calls` (arity, built-in overloads), `members` (vector literals, swizzles, struct members),
`redefinitions`, `returns`, `assignments` (const, kinds of value); `context` holds what they share.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable
from itertools import compress
from operator import attrgetter

from tree_sitter import Node

from cllint.analysis.findings import Finding
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import items_in, nodes_of_kinds

from . import assignments, calls, names, redefinitions, returns, types
from .context import Body, FileFacts
from cllint.analysis.lazy_re import lazy

KINDS = frozenset({"identifier", "call_expression", "macro_invocation", "field_expression", "vector_literal", "return_statement",
                   "assignment_expression", "update_expression", "init_declarator", "ERROR", "block_literal",
                   "attribute_specifier", "attribute_declaration", "sizeof_expression", "binary_expression",
                   "cast_expression", "type_identifier"})


# A head's children that are a type name themselves, or hold none (`kernel`, `inline`, `float`).
_HEAD_TYPES = frozenset({"type_identifier"})
_HEAD_WORDS = frozenset({"primitive_type", "kernel_specifier", "storage_class_specifier", "type_qualifier",
                         "function_specifier"})


def findings(model: SemanticModel, view: object | None, in_focus: Callable[[Node], bool],
             focus: list[tuple[int, int]] | None = None) -> list[Finding]:
    """`focus`: the ranges `in_focus` accepts, where known (the definitions outside are not
    asked one by one)."""
    facts = FileFacts.of(model, view)
    out: list[Finding] = []
    # Type names are read off the same queries: the bodies', their heads', file-level items'.
    typed: list[list[Node]] = []
    for definition in model.definitions_in(focus):
        block = definition.child_by_field_name("body")
        if block is None or not in_focus(definition) or _misread_macro_head(definition):
            continue
        typed.append(_check_body(Body(facts, model.function_at_node(definition), out), block))
        typed += [[c] if c.type in _HEAD_TYPES else nodes_of_kinds(c, KINDS, ordered=False)
                  for c in definition.children if c.end_byte <= block.start_byte and c.type not in _HEAD_WORDS]
    add = lambda *a: out.append(Finding(*a)) if _active(view, a[1]) else None  # noqa: E731
    redefinitions.check_functions(facts, model, in_focus, add)
    # The file-level items in focus, found from its offsets (a keystroke's is one definition).
    typed += [nodes_of_kinds(c, KINDS, ordered=False) for c in items_in(model.tree.root_node, _ROOT, focus)
              if c.is_named and c.type != "function_definition" and in_focus(c)]
    types.check_type_names(facts, model, typed, add)
    return out


_ROOT = frozenset({"translation_unit"})  # the items: the root's children
_WRAPPING_DECLARATORS = frozenset({"pointer_declarator", "parenthesized_declarator", "attributed_declarator",
                                    "macro_declarator", "block_pointer_declarator"})


def _misread_macro_head(definition: Node) -> bool:
    """Whether a definition is a macro-headed kernel the parser misread: a function-like macro's
    call on the same line before it (`KERNEL(SMALL / 2) square(global T2* io) {`, a typedef-named
    parameter) and a declarator that is no function's (`square (io)`; C99 6.9.1p2 requires one).
    The compiler reads the macro's expansion, a kernel: names in the misreading mean nothing. A
    definition misread with no macro before it (`void f(__global * p)`, a type left out) is the
    file's own error and stays checked."""
    prev = definition.prev_named_sibling
    if prev is None or prev.type != "macro_invocation" or prev.end_point[0] != definition.start_point[0]:
        return False
    d = definition.child_by_field_name("declarator")
    while d is not None and d.type in _WRAPPING_DECLARATORS:
        d = d.child_by_field_name("declarator") or next((c for c in d.named_children if c.type.endswith("declarator")), None)
    return d is None or d.type != "function_declarator"


def _active(view: object | None, offset: int) -> bool:
    return view is None or view.active_at(offset) is not False


def _head_macro_args(body: Body) -> set[str]:
    """Names passed to a function-like macro of the file in the function's head: the
    parameters it declares (`float4 sample(float2 uv, TEXTURE_ARG_LIST_IDX(texidx))` with
    `#define TEXTURE_ARG_LIST_IDX(x) int x, ...`, Baikal's)."""
    node = body.fm.node
    block = node.child_by_field_name("body")
    if block is None:
        return set()
    head = body.source[node.start_byte:block.start_byte]
    out: set[str] = set()
    for m in _HEAD_CALL.finditer(head):
        if body.facts.macro_arity(m.group(1).decode()) is None:
            continue
        depth, end = 0, m.end() - 1
        while end < len(head):
            depth += {40: 1, 41: -1}.get(head[end], 0)
            if depth == 0:
                break
            end += 1
        out.update(w.decode() for w in _HEAD_WORD.findall(head, m.end(), end))
    return out


_TYPE = attrgetter("type")
_HEAD_CALL = re.compile(rb"\b([A-Za-z_]\w*)\s*\(")
_HEAD_WORD = lazy(rb"[A-Za-z_]\w*")


def _check_body(body: Body, block: Node) -> list[Node]:
    """Checks one body; returns what its query found (for the type names)."""
    found = all_found = nodes_of_kinds(block, KINDS)
    body.found, body.block = all_found, block
    # Each node's kind read once (a new string per read): the passes below test it six times.
    kinds = list(map(_TYPE, found))
    # Every identifier, broken code's too, by start: what a macro's arguments hold is a slice
    # (a query per call cost more than the rest of the body's checks on macro-heavy code).
    all_identifiers = [n for n, k in zip(found, kinds) if k == "identifier"]
    starts = [n.start_byte for n in all_identifiers]
    # Broken code is read as tree-sitter recovered it: nothing in it is judged. A block
    # literal's `return`s are the block's own.
    errors = [(n.start_byte, n.end_byte) for n, k in zip(found, kinds) if k == "ERROR"]
    blocks = [(n.start_byte, n.end_byte) for n, k in zip(found, kinds) if k == "block_literal"]
    # Attribute arguments (`__attribute__((aligned(16)))`) name attributes, not functions or
    # variables: nothing in them is judged either.
    skipped = errors + [(n.start_byte, n.end_byte) for n, k in zip(found, kinds) if k.startswith("attribute_")]
    if skipped:
        kept = [not any(s <= n.start_byte < e for s, e in skipped) for n in found]
        found, kinds = list(compress(found, kept)), list(compress(kinds, kept))
    identifiers = [n for n, k in zip(found, kinds) if k == "identifier"]
    for call, k in zip(found, kinds):
        if k not in ("call_expression", "macro_invocation"):
            continue
        fn = call.child_by_field_name("function")
        if fn is not None and fn.type == "identifier" and (
                (fn.id not in body.fm.refs and not body.facts.header_function(body.text(fn)))
                or body.facts.macro_arity(body.text(fn)) is not None):  # a function-like macro of the file
            args = call.child_by_field_name("arguments")
            if args is not None:  # a macro's arguments may be names it declares
                within = all_identifiers[bisect_left(starts, args.start_byte):bisect_left(starts, args.end_byte)]
                body.macro_args.update(body.text(i) for i in within)
    body.macro_args.update(_head_macro_args(body))
    names.check_names(body, identifiers)
    redefinitions.check_locals(body)
    # The member and operand checks' modules, for a body that has what they read (a one-line
    # kernel has neither: each module costs start-up to load).
    present = set(kinds)
    if "field_expression" in present or "vector_literal" in present:
        from . import members
    if "sizeof_expression" in present or "binary_expression" in present:
        from . import operands
    for n, k in zip(found, kinds):
        if k == "call_expression":
            calls.check_call(body, n)
            args = calls.arguments(n)
            if args is not None:
                assignments.check_arguments(body, n, args)
        elif k == "field_expression":
            members.check_field(body, n)
        elif k == "vector_literal":
            members.check_vector_literal(body, n)
            assignments.check_vector_cast(body, n)
        elif k == "cast_expression":
            assignments.check_vector_cast(body, n)
        elif k == "return_statement":
            if not any(s <= n.start_byte < e for s, e in blocks):
                returns.check_return(body, n)
                assignments.check_return_value(body, n)
        elif k in ("assignment_expression", "update_expression"):
            assignments.check_write(body, n, assignments.writes(body, n))
            if k == "assignment_expression":
                assignments.check_assignment(body, n)
        elif k == "init_declarator":
            assignments.check_init(body, n)
        elif k == "sizeof_expression":
            operands.check_sizeof(body, n)
        elif k == "binary_expression":
            operands.check_binary(body, n)
    if not errors:
        returns.check_falls_off(body)
    return all_found
