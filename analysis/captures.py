"""Running a tree-sitter query under a node, safe on trees of any depth.

A query cursor counts depth in 16 bits: below 65,535 levels (one expression of 100,000
terms) it slows down sharply and misses captures (130 s, and parameters read as
undeclared). A subtree with fewer than `DEEP` descendants is shallower than that, so it
gets one query as usual. Above that, the few nodes with `DEEP` or more descendants (a
header guard around the file, a big function, the spine of a long expression) are walked
breadth-first to depth `CUT`; those found there are queried on their own, in turn, and the
query from the top skips them through byte ranges: what it visits lies less than
CUT + DEEP < 65,535 levels down.
"""

from __future__ import annotations

from operator import attrgetter

from tree_sitter import Node, Query, QueryCursor

from cllint.analysis.database import current

DEEP = 32_000  # depth of a subtree <= its descendant count
CUT = 32_000
_START = attrgetter("start_byte")


def captures(query: Query, node: Node, byte_range: tuple[int, int] | None = None) -> dict[str, list[Node]]:
    """`QueryCursor(query).captures(node)` (with `set_byte_range(*byte_range)`), by capture
    name, in no particular order."""
    if node.descendant_count < DEEP:
        return _run(query, node, byte_range)
    out: dict[str, list[Node]] = {}
    roots = [node]
    while roots:
        root = roots.pop()
        cuts = _cuts(root)
        roots.extend(cuts)
        prev_end = -1
        for gap in _gaps(root, cuts, byte_range):
            for name, nodes in _run(query, root, gap).items():
                if gap is not None and prev_end >= 0 and nodes and min(map(_START, nodes)) < prev_end:
                    # an ancestor of a cut spans two gaps: the gap before found it already
                    nodes = [n for n in nodes if n.start_byte >= prev_end]
                if name in out:
                    out[name].extend(nodes)
                else:
                    out[name] = nodes
            prev_end = gap[1] if gap is not None else -1
    return out


# The roots' cuts last used: every analysis queries the same deep bodies (one lint of a file
# nested 87,000 deep asks for 24 roots' cuts, 60 times; one expression of a million terms,
# 132 roots' cuts 627 times, 51 ms each), kept in the database's "captures.cuts", least
# recently used first. Each entry holds its root (and so its tree), so a node id there is
# never reused; only trees with a node of DEEP descendants come here, and each lint starts
# afresh (`forget`): a server editing a deep file must not keep its old trees alive.
_CUTS_KEPT = 256


def forget() -> None:
    """Drops the kept cuts (and the trees they hold): called as each lint starts."""
    current().table("captures.cuts", _CUTS_KEPT).clear()


def _cuts(root: Node) -> list[Node]:
    """The nodes `CUT` levels below `root` with `DEEP` or more descendants (their ancestors
    all have as many: the walk visits only such nodes)."""
    table = current().table("captures.cuts", _CUTS_KEPT)
    got = table.touch(root.id)
    if got is None or got[0] != root:
        got = table.put(root.id, (root, _walk_cuts(root)))
    return got[1]


def _walk_cuts(root: Node) -> list[Node]:
    level = [root]
    for _ in range(CUT):
        level = [c for n in level for c in n.children if c.descendant_count >= DEEP]
        if not level:
            break
    return level


def _gaps(root: Node, cuts: list[Node], byte_range: tuple[int, int] | None) -> list[tuple[int, int] | None]:
    """Byte ranges covering `root` (within `byte_range`) less the cut subtrees."""
    if not cuts:
        return [byte_range]
    lo, hi = byte_range if byte_range is not None else (root.start_byte, root.end_byte)
    out: list[tuple[int, int] | None] = []
    start = lo
    for c in sorted(cuts, key=lambda n: n.start_byte):
        if c.start_byte > start:
            out.append((start, min(c.start_byte, hi)))
        start = max(start, c.end_byte)
    if start < hi:
        out.append((start, hi))
    return [g for g in out if g is not None and g[0] < g[1]]


def _run(query: Query, node: Node, byte_range: tuple[int, int] | None) -> dict[str, list[Node]]:
    cursor = QueryCursor(query)
    if byte_range is not None:
        cursor.set_byte_range(*byte_range)
    return cursor.captures(node)


__all__ = ["CUT", "DEEP", "captures", "forget"]
