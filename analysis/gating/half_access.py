"""Loads and stores through pointers to `half`: `h[i] = x`, `y = *h`, `y = r->h`, `s.h = x`.

Spec 6.1.1.1: without `cl_khr_fp16`, `half` may only declare pointers to buffers of halves,
read and written with `vload_half`/`vstore_half`; loading or storing a `half` value through
the pointer needs the extension (clang-19: "loading directly from pointer to type '__global
half' requires cl_khr_fp16", and "assigning directly to ..."), and its pragma. Taking the
element's address (`&h[i]`) or its size is neither. A `half` struct field is storage too:
reading or writing it is a load or a store (clang-19 says the same of `s.h` and `r->h`).

One report per cause: a `half` variable is reported where it is declared, and an expression
that also uses one (`h[i] = t` with `half t`) is not reported again; clang-19 rejects the
declaration and stays silent about the expressions that use it.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node, Tree

from ..model import Array, Scalar, SemanticModel
from ..model.walk import KindIndex, nodes_of_kinds
from . import tables
from .uses import Use, _Items
from cllint.analysis.lazy_re import lazy

_IDENTIFIERS = frozenset({"identifier"})
_HALF_WORD = lazy(rb"\bhalf\b")
ACCESSES = frozenset({"subscript_expression", "pointer_expression", "field_expression"})
_NO_ACCESS_PARENTS = frozenset({"sizeof_expression", "alignof_expression"})


def _operator(node: Node) -> bytes | None:
    op = node.child_by_field_name("operator")
    return op.text if op is not None else None


def _is_access(node: Node) -> bool:
    """A dereference whose value is read or written: not `&p[i]`, `&*p` or `sizeof p[i]`."""
    if node.type == "pointer_expression" and _operator(node) != b"*":
        return False
    parent = node.parent
    while parent is not None and parent.type == "parenthesized_expression":  # sizeof(h[0])
        parent = parent.parent
    if parent is None:
        return True
    # an inline-assembly output operand: the asm writes the storage, no C store (clang-19
    # accepts it without cl_khr_fp16; an input operand is a load and is one)
    return not (parent.type in _NO_ACCESS_PARENTS or parent.type == "gnu_asm_output_operand"
                or (parent.type == "pointer_expression" and _operator(parent) == b"&"))


_EXPRESSION_TOP = frozenset({"expression_statement", "init_declarator", "return_statement", "declaration",
                             "condition_clause", "for_statement", "while_statement", "do_statement",
                             "if_statement", "compound_statement", "argument_list"})


def _uses_half_variable(model: SemanticModel, node: Node) -> bool:
    """The full expression around `node` names a variable of type `half` or an array of them
    (reported where it is declared): the statement `x = t` or the initializer `= t * h[i]`."""
    top = node
    while top.parent is not None and top.parent.type not in _EXPRESSION_TOP:
        top = top.parent
    for ident in nodes_of_kinds(top, _IDENTIFIERS, ordered=False):
        t = model.type_of(ident)
        while isinstance(t, Array):  # `half tile[16]` is declared, and reported, as half too
            t = t.elem
        if isinstance(t, Scalar) and t.name == "half":
            return True
    return False


def _stored(node: Node) -> bool:
    """The left side of an assignment (`h[i] = x`, `h[i] += x`)."""
    parent = node.parent
    return parent is not None and parent.type == "assignment_expression" and parent.child_by_field_name("left") == node


def half_accesses(model: Callable[[], SemanticModel], tree: Tree, source: bytes,
                  focus: list[tuple[int, int]] | None = None, kinds: KindIndex | None = None) -> list[Use]:
    """Each load or store of a scalar `half` through a pointer (starting in `focus`). `model`
    builds the semantic model on first need; an access it cannot type is left alone. `kinds`:
    the lint's one query over the tree, read instead of every named node of the tree."""
    # find() first: it skips through the text in C many times faster than the regex, which
    # then runs only where `half` occurs at all (every keystroke asks).
    if b"half" not in source or _HALF_WORD.search(source) is None:
        return []  # the word `half` nowhere (`vload_half` is not it): no half to go through
    found = kinds.under(tree.root_node, ACCESSES) if kinds is not None and focus is None else \
        nodes_of_kinds(tree.root_node, ACCESSES, ordered=False, ranges=focus)
    nodes = sorted(found, key=lambda n: n.start_byte)
    items = _Items(tree.root_node)  # each access's statement, read going down in start order
    out: list[Use] = []
    built: SemanticModel | None = None
    for node in nodes:
        try:
            if not _is_access(node):
                continue
            built = built or model()
            t = built.type_of(node)
        except (AttributeError, ValueError, IndexError, RecursionError):  # odd trees: skip
            continue
        if isinstance(t, Scalar) and t.name == "half" and not _uses_half_variable(built, node):
            name = source[node.start_byte:node.end_byte].decode("utf-8", "replace")
            out.append(Use(node.start_byte, node.end_byte, "store" if _stored(node) else "load", name, None,
                           tables.FP16, None, items.of(node), detail=" of type 'half'"))
    out.sort(key=lambda u: (u.start, u.end))
    return out
