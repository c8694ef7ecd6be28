"""A compare-and-swap loop's seed (issue 29, Anakin's Mvn.cl): a float atomic add written as
`current = *addr; do { expected = current; current = atomic_cmpxchg(addr, expected, next); }
while (current != expected);` reads `*addr` plainly to guess the swap's expected value. The
swap checks the guess: a stale one fails, and the loop retries with the value the swap
returns. So that read meets the swaps without a race worth a report (the same read inside the
loop never was one); a plain write beside the loop, or a swap tried once, still is."""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.races.accesses import Access
from cllint.analysis.uniformity.dataflow import callee_name

_LOOPS = frozenset({"do_statement", "while_statement", "for_statement"})


def _is_swap(name: str | None) -> bool:
    return name is not None and ("cmpxchg" in name or "compare_exchange" in name)


def _call(node: Node) -> Node | None:
    while node is not None and node.type != "call_expression":
        node = node.parent
    return node


def _function(node: Node | None) -> Node | None:
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def _retry_loop(call: Node) -> Node | None:
    """The innermost loop of its function the swap is retried in."""
    node = call.parent
    while node is not None and node.type != "function_definition":
        if node.type in _LOOPS:
            return node
        node = node.parent
    return None


def cas_seed(a: Access, b: Access) -> bool:
    """One side a plain read, the other a compare-and-swap retried in a loop of the same
    function, the read before that loop's end (the loop's first guess or its retry's)."""
    for read, swap in ((a, b), (b, a)):
        if not swap.atomic or read.atomic or read.write or not read.read or read.copy \
                or read.helper != swap.helper or read.site != swap.site:
            continue
        call = _call(swap.node)
        if call is None or not _is_swap(callee_name(call)):
            continue
        loop = _retry_loop(call)
        fn = _function(call)
        if loop is None or fn is None:
            continue
        home = _function(read.node)
        if home is not None and home.id == fn.id and read.node.start_byte < loop.end_byte:
            return True
    return False
