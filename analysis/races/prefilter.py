"""Cheap necessary conditions for the race check, read before its CFG and dataflow.

Every access the check compares has a base declared in the kernel (a `__local` array, a
shared pointer argument, or what one of those points into) whose declaration carries a
`local` or `global` address-space qualifier (accesses.space_of reads that node). A kernel
whose text holds neither word, with or without `__`, declares no such base, so neither it
nor a helper it calls (followed only through pointers the kernel passes) can race. A word
in a comment or a string only keeps the full check: the filter may say yes wrongly, never no.
"""

from __future__ import annotations

import re
from collections.abc import Container

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds

# `get_global_id` and `global_x` are not the qualifier: `_` is a word character.
_QUALIFIER = re.compile(rb"(?<![\w$])(?:__)?(?:local|global)(?![\w$])")


def may_share(source: bytes, start: int, end: int) -> bool:
    """Whether the kernel at source[start:end] may declare shared memory the check follows."""
    return _QUALIFIER.search(source, start, end) is not None


_WRITES = frozenset({"assignment_expression", "update_expression", "call_expression"})
_STORED = ("subscript_expression", "pointer_expression")
_ATOMIC = ("atomic_", "atom_")  # accesses._use: `&t[i]` passed to one is a write


def may_write(func: Node, defined: Container[str]) -> bool:
    """Whether the kernel `func` may write shared memory the check follows: a store or an
    increment through a subscript or `*` (accesses._use), an atomic call, or a call of a
    function the file defines (`defined`: a helper writes only through what it is passed).
    Without one, every access is a read, and reads do not race with reads."""
    for n in nodes_of_kinds(func, _WRITES, ordered=False):
        if n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is None or fn.type != "identifier":
                continue  # not followed by the check either (callee_name)
            name = fn.text.decode("utf-8", "replace") if fn.text else ""
            if name.startswith(_ATOMIC) or name in defined:
                return True
            continue
        target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        while target is not None and target.type == "parenthesized_expression" and target.named_child_count == 1:
            target = target.named_children[0]
        if target is not None and target.type in _STORED:
            return True
    return False
