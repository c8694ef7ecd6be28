"""Finding nodes of a few kinds under a node without walking the tree in Python.

`nodes_of_kinds(root, kinds)` runs one tree-sitter query (compiled once per set of kinds) and
returns the matching nodes in pre-order, the order a depth-first walk would meet them. Walking a
whole file in Python costs a call and a list per node; the query visits the nodes in C and
hands back only the few that a check reads.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable
from functools import cache
from operator import attrgetter

from tree_sitter import Node, Query, QueryCursor

from cllint.grammar import language

_CAPTURE = "n"


@cache
def _query(kinds: frozenset[str]) -> Query:
    lang = language()
    known = [k for k in sorted(kinds) if lang.id_for_node_kind(k, True) is not None]
    alts = " ".join(f"({k})" for k in known)
    return Query(lang, f"[{alts}] @{_CAPTURE}")


def _preorder_key(n: Node) -> tuple[int, int]:
    return n.start_byte, -n.end_byte


_START, _END = attrgetter("start_byte"), attrgetter("end_byte")


def nodes_of_kinds(root: Node, kinds: frozenset[str], ordered: bool = True,
                   ranges: list[tuple[int, int]] | None = None) -> list[Node]:
    """Every node under `root` (itself included) whose type is in `kinds`, in pre-order
    (in no particular order with `ordered=False`, for callers that sort what they find).

    With `ranges` (sorted, disjoint byte ranges: an incremental run's focus), only nodes
    that start inside one of them; the query visits only those ranges."""
    if ranges is None:
        got = QueryCursor(_query(kinds)).captures(root).get(_CAPTURE, [])
    else:
        got, seen = [], set()
        for start, end in ranges:
            cursor = QueryCursor(_query(kinds))
            cursor.set_byte_range(start, max(start, end))
            for n in cursor.captures(root).get(_CAPTURE, []):
                if start <= n.start_byte < end and n.id not in seen:
                    seen.add(n.id)
                    got.append(n)
    if ordered:  # by _preorder_key, as two stable sorts on C-level keys (ties keep their order)
        got.sort(key=_END, reverse=True)
        got.sort(key=_START)
    return got


def in_ranges(ranges: list[tuple[int, int]] | None, offset: int) -> bool:
    """`offset` lies in one of `ranges` (sorted, disjoint); None stands for everything."""
    if ranges is None:
        return True
    i = bisect_right(ranges, (offset, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= offset < ranges[i][1]


def within_range(ranges: list[tuple[int, int]] | None, start: int, end: int) -> bool:
    """[start, end) lies inside one of `ranges` (sorted, disjoint; None: everything)."""
    if ranges is None:
        return True
    i = bisect_right(ranges, (start, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= start and end <= ranges[i][1]


def meets_range(ranges: list[tuple[int, int]] | None, start: int, end: int) -> bool:
    """[start, end) overlaps one of `ranges` (sorted, disjoint; None: everything)."""
    if ranges is None:
        return True
    i = bisect_right(ranges, (start, float("inf"))) - 1
    if i >= 0 and ranges[i][1] > start:
        return True
    return i + 1 < len(ranges) and ranges[i + 1][0] < end


def outside(nodes: Iterable[Node], skip: frozenset[str]) -> list[Node]:
    """`nodes` (pre-order) less those strictly inside a node whose type is in `skip`;
    the skip nodes themselves are left out too."""
    out: list[Node] = []
    end = -1
    start = -1
    for n in nodes:
        s = n.start_byte
        if start <= s and n.end_byte <= end and s < end:
            continue
        if n.type in skip:
            start, end = s, n.end_byte
            continue
        out.append(n)
    return out


__all__ = ["in_ranges", "nodes_of_kinds", "outside"]
