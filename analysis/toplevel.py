"""A file's top-level items, matched with the items of the same file's previous tree.

Rules that read file-wide facts (CL2xx: what every function calls and whether it
synchronises; CL3xx: which names the file defines) would read every function again on
each keystroke, though a keystroke changes one. Facts read off an item are stored on its
`Item` and carried over to the next tree when the item is unchanged: the same kind, node
count (with a syntax error elsewhere the same text can parse differently) and text. The
text is compared with one memcmp per run of unchanged items, not hashed item by item.

An item is a child of the root or of a node that may hold a function definition outside
a body (directive blocks, `extern "C"`, declaration lists); those containers are not
items, their children are. Facts must not depend on where the item stands. Shared by the
barrier (uniformity/) and gating (gating/) families, and the incremental driver reads its
CONTAINERS.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.database import current
from cllint.grammar import language

CONTAINERS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
                        "linkage_specification", "declaration_list"})


def _kind_ids(names: frozenset[str]) -> frozenset[int]:
    """Every symbol named so (aliases share a name): `kind_id in ids` is `type in names`
    without making a string per node."""
    lang = language()
    return frozenset(i for i in range(lang.node_kind_count) if lang.node_kind_for_id(i) in names)


_CONTAINER_IDS = _kind_ids(CONTAINERS)
FUNCTION_IDS = _kind_ids(frozenset({"function_definition"}))


class Item:
    """One item wherever it stands; `facts` holds what rules read off it, by rule family."""

    __slots__ = ("kind", "length", "count", "facts")

    def __init__(self, kind: int, length: int, count: int) -> None:  # kind: a kind_id
        self.kind = kind
        self.length = length
        self.count = count
        self.facts: dict[str, Any] = {}


class _Previous:
    """What the next tree of the same file is matched against."""

    source: bytes
    starts: list[int]
    ends: list[int]
    kinds: list[int]
    counts: list[int]
    items: list[Item]
    derived: dict[str, Any]  # see Items.derived

    __match_args__ = ("source", "starts", "ends", "kinds", "counts", "items", "derived")

    def __init__(
        self,
        source: bytes,
        starts: list[int],
        ends: list[int],
        kinds: list[int],
        counts: list[int],
        items: list[Item],
        derived: dict[str, Any] | None = None,
    ) -> None:
        self.source = source
        self.starts = starts
        self.ends = ends
        self.kinds = kinds
        self.counts = counts
        self.items = items
        self.derived = {} if derived is None else derived

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"source={self.source!r}, " f"starts={self.starts!r}, "
                f"ends={self.ends!r}, " f"kinds={self.kinds!r}, " f"counts={self.counts!r}, "
                f"items={self.items!r}, " f"derived={self.derived!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.source, self.starts, self.ends, self.kinds, self.counts, self.items, self.derived)
        theirs = (other.source, other.starts, other.ends, other.kinds, other.counts, other.items,
                  other.derived)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


# A part's memo key: its kind, text and node count (see `Item`).
PartKey = tuple[int, bytes, int]


class Body:
    """A function item's body as the children of its braces: an edit inside a function
    changes one of them, and what is read off the others (keyed on `PartKey`) stays."""

    start: int
    end: int
    parts: list[tuple[Node, PartKey]]

    __match_args__ = ("start", "end", "parts")

    def __init__(self, start: int, end: int, parts: list[tuple[Node, PartKey]]) -> None:
        self.start = start
        self.end = end
        self.parts = parts

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(start={self.start!r}, end={self.end!r}, parts={self.parts!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.start, self.end, self.parts) == (other.start, other.end, other.parts)

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class Items:
    """The items of one tree in source order, with their nodes and starts."""

    tree: Tree  # held, so that an `is` test on it cannot see a new tree at a reused address
    source: bytes
    nodes: list[Node]
    starts: list[int]
    ends: list[int]
    items: list[Item]
    fresh: list[int]  # the indices of the items not carried over from the previous tree
    # What rule families derived from every item, by family: `derived` for the next tree,
    # `previous` the previous tree's when its items stand at the same indices (as many
    # items; all but `fresh` carried over), so that a family re-reads the fresh ones only.
    derived: dict[str, Any]
    previous: dict[str, Any] | None
    bodies: dict[int, Body | None]  # by item index, as asked for

    __match_args__ = ("tree", "source", "nodes", "starts", "ends", "items", "fresh", "derived", "previous",
                      "bodies")

    def __init__(
        self,
        tree: Tree,
        source: bytes,
        nodes: list[Node],
        starts: list[int],
        ends: list[int],
        items: list[Item],
        fresh: list[int],
        derived: dict[str, Any],
        previous: dict[str, Any] | None,
        bodies: dict[int, Body | None] | None = None,
    ) -> None:
        self.tree = tree
        self.source = source
        self.nodes = nodes
        self.starts = starts
        self.ends = ends
        self.items = items
        self.fresh = fresh
        self.derived = derived
        self.previous = previous
        self.bodies = {} if bodies is None else bodies

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"tree={self.tree!r}, " f"source={self.source!r}, "
                f"nodes={self.nodes!r}, " f"starts={self.starts!r}, " f"ends={self.ends!r}, "
                f"items={self.items!r}, " f"fresh={self.fresh!r}, " f"derived={self.derived!r}, "
                f"previous={self.previous!r}, " f"bodies={self.bodies!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.tree, self.source, self.nodes, self.starts, self.ends, self.items, self.fresh,
                self.derived, self.previous, self.bodies)
        theirs = (other.tree, other.source, other.nodes, other.starts, other.ends, other.items, other.fresh,
                  other.derived, other.previous, other.bodies)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def body(self, k: int) -> Body | None:
        """The body of item k, a function definition (None without one)."""
        if k in self.bodies:
            return self.bodies[k]
        node = self.nodes[k].child_by_field_name("body")
        body = None
        if node is not None and node.type == "compound_statement":
            src = self.source
            body = Body(node.start_byte, node.end_byte,
                        [(c, (c.kind_id, src[c.start_byte:c.end_byte], c.descendant_count)) for c in node.children])
        self.bodies[k] = body
        return body


_PREVIOUS_LIMIT = 4  # files; each keeps its previous tree (megabytes): the ones being typed in


def items_of(tree: Tree, source: bytes, file: str = "") -> Items:
    """The items of `tree` (parsed from `source`); the same object for the same tree and
    source, so that rule families share one pass. Per file, the database keeps what the
    next tree is matched against (`_Previous`) and the last `Items` (which holds its tree)."""
    table = current().per_file("toplevel.items", _PREVIOUS_LIMIT)
    got = table.touch(file)
    prev = None
    if got is not None:
        prev, last = got
        if last.tree is tree and last.source == source:
            return last
    nodes, kinds = _leaves(tree.root_node)
    new = _Previous(source, [n.start_byte for n in nodes], [n.end_byte for n in nodes], kinds,
                    [n.descendant_count for n in nodes], [])
    new.items, fresh = _match(new, prev)
    aligned = prev is not None and len(prev.items) == len(new.items)
    items = Items(tree, source, nodes, new.starts, new.ends, new.items, fresh, new.derived,
                  prev.derived if aligned else None)
    table.put(file, (new, items))
    return items


def forget() -> None:
    """Drop every carried fact of the current database (tests: a run from scratch)."""
    current().per_file("toplevel.items", _PREVIOUS_LIMIT).clear()


def _leaves(root: Node) -> tuple[list[Node], list[int]]:
    nodes: list[Node] = []
    kinds: list[int] = []
    containers = _CONTAINER_IDS
    todo = root.children
    todo.reverse()
    while todo:
        n = todo.pop()
        kind = n.kind_id
        if kind in containers:
            inner = n.children
            inner.reverse()
            todo.extend(inner)
        else:
            nodes.append(n)
            kinds.append(kind)
    return nodes, kinds


def _match(new: _Previous, old: _Previous | None) -> tuple[list[Item], list[int]]:
    """The previous items that stand unchanged before and after the edited ones (the same
    offsets before, shifted by the change in length after); new items for the rest, whose
    indices come second. With as many items as before, each carried item keeps its index."""
    starts, ends, kinds, counts = new.starts, new.ends, new.kinds, new.counts
    n = len(starts)
    out: list[Item | None] = [None] * n
    if old is not None:
        o_starts, o_ends, o_kinds, o_counts = old.starts, old.ends, old.kinds, old.counts
        m = len(o_starts)
        i, lim = 0, min(n, m)
        while i < lim and starts[i] == o_starts[i] and ends[i] == o_ends[i] and kinds[i] == o_kinds[i] \
                and counts[i] == o_counts[i]:
            i += 1
        delta = len(new.source) - len(old.source)
        a, b = n - 1, m - 1  # matched from the end
        while a >= i and b >= i and starts[a] == o_starts[b] + delta and ends[a] == o_ends[b] + delta \
                and kinds[a] == o_kinds[b] and counts[a] == o_counts[b]:
            a -= 1
            b -= 1
        text, old_text = new.source, memoryview(old.source)
        if i and text.startswith(old_text[: ends[i - 1]]):
            out[:i] = old.items[:i]
        else:  # the same shape but not the same text throughout: item by item
            _verify(out, range(i), 0, old, old_text, text, starts)
        if a < n - 1 and text.endswith(old_text[o_starts[b + 1]:]):
            out[a + 1:] = old.items[b + 1:]
        else:
            _verify(out, range(a + 1, n), b - a, old, old_text, text, starts)
    fresh = [k for k, it in enumerate(out) if it is None]
    for k in fresh:
        out[k] = Item(kinds[k], ends[k] - starts[k], counts[k])
    return out, fresh  # type: ignore[return-value]  # no None left


def _verify(out: list[Item | None], new: range, shift: int, old: _Previous, old_text: memoryview,
            text: bytes, starts: list[int]) -> None:
    for k in new:
        o = k + shift
        if text.startswith(old_text[old.starts[o] : old.ends[o]], starts[k]):
            out[k] = old.items[o]
