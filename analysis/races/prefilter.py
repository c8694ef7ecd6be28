"""A cheap necessary condition for the race check, read before its CFG and dataflow.

Every access the check compares has a base declared in the kernel (a `__local` array, a
shared pointer argument, or what one of those points into) whose declaration carries a
`local` or `global` address-space qualifier (accesses.space_of reads that node). A kernel
whose text holds neither word, with or without `__`, declares no such base, so neither it
nor a helper it calls (followed only through pointers the kernel passes) can race. A word
in a comment or a string only keeps the full check: the filter may say yes wrongly, never no.
"""

from __future__ import annotations

import re

# `get_global_id` and `global_x` are not the qualifier: `_` is a word character.
_QUALIFIER = re.compile(rb"(?<![\w$])(?:__)?(?:local|global)(?![\w$])")


def may_share(source: bytes, start: int, end: int) -> bool:
    """Whether the kernel at source[start:end] may declare shared memory the check follows."""
    return _QUALIFIER.search(source, start, end) is not None
