"""Finding nodes of a few kinds under a node without walking the tree in Python.

`nodes_of_kinds(root, kinds)` runs one tree-sitter query (compiled once per set of kinds) and
returns the matching nodes in pre-order, the order a depth-first walk would meet them. Walking a
whole file in Python costs a call and a list per node; the query visits the nodes in C and
hands back only the few that a check reads.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from contextvars import ContextVar
from collections.abc import Iterable
from functools import cache
from itertools import compress
from operator import attrgetter
from sys import intern

from tree_sitter import Node, Query

from cllint.analysis.captures import captures
from cllint.analysis.database import current
from cllint.grammar import language

_CAPTURE = "n"


# Compiling a query costs ~2 ms whatever it asks (tree-sitter reads the grammar's parse table
# for each one), and a lint asks for 14 sets of kinds: most of `cllint check`'s time on a small
# file (issue 32). A walk in Python costs ~0.3 us a node against a query's ~0.1, so each set
# walks its first WALK_BUDGET nodes (over all calls) and gets its query only when it reads
# more: at worst about twice the cost of the better choice, and the same nodes either way.
WALK_BUDGET = 6_000
# A process that lints for long (the language server) compiles each query on first use instead:
# `queries_at_once()` in its analysis thread, before its warm-up lint.
_BUDGET: ContextVar[int] = ContextVar("cllint_walk_budget", default=WALK_BUDGET)


def queries_at_once() -> None:
    """In the calling thread (context), every set of kinds gets its query on first use."""
    _BUDGET.set(0)


class _Search:
    """How one set of kinds is found: walking, until the set has walked its budget, then its query."""

    __slots__ = ("kinds", "walked", "query")

    def __init__(self, kinds: frozenset[str]) -> None:
        self.kinds = kinds
        self.walked = 0
        self.query: Query | None = None

    def compiled(self) -> Query:
        if self.query is None:
            lang = language()
            known = [k for k in sorted(self.kinds) if lang.id_for_node_kind(k, True) is not None]
            alts = " ".join(f"({k})" for k in known)
            self.query = Query(lang, f"[{alts}] @{_CAPTURE}")
        return self.query

    def find(self, root: Node, byte_range: tuple[int, int] | None = None) -> list[Node]:
        """The nodes of the set under `root` (and meeting `byte_range`), in no set order."""
        if self.query is None:
            count = root.descendant_count
            if self.walked + count <= min(WALK_BUDGET, _BUDGET.get()):
                self.walked += count
                return _walk(root, self.kinds, byte_range)
        return captures(self.compiled(), root, byte_range).get(_CAPTURE, [])


@cache
def _query(kinds: frozenset[str]) -> _Search:
    return _Search(kinds)


def _walk(root: Node, kinds: frozenset[str], byte_range: tuple[int, int] | None) -> list[Node]:
    """What the query `[(k) ...] @n` captures under `root`, by a cursor: named nodes of
    `kinds`; with `byte_range`, at least those that start inside it."""
    out: list[Node] = []
    lo, hi = byte_range if byte_range is not None else (0, 1 << 62)
    cursor = root.walk()
    while True:
        node = cursor.node
        if node.end_byte < lo or node.start_byte > hi:
            pass  # outside the range: neither it nor what it holds (callers keep what starts inside)
        else:
            if node.type in kinds and node.is_named:
                out.append(node)
            if cursor.goto_first_child():
                continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


_START, _END, _TYPE = attrgetter("start_byte"), attrgetter("end_byte"), attrgetter("type")
_DESCENDANTS = attrgetter("descendant_count")


def nodes_of_kinds(root: Node, kinds: frozenset[str], ordered: bool = True,
                   ranges: list[tuple[int, int]] | None = None) -> list[Node]:
    """Every node under `root` (itself included) whose type is in `kinds`, in pre-order
    (in no particular order with `ordered=False`, for callers that sort what they find).

    With `ranges` (sorted, disjoint byte ranges: an incremental run's focus), only nodes
    that start inside one of them; the query visits only those ranges."""
    search = _query(kinds)
    if ranges is None:
        under = _subtree(root)
        if under is None:
            got = search.find(root)
        elif under.in_order:
            return under.of(kinds)  # kept in pre-order: no sort
        else:
            got = under.of(kinds)
    else:
        got, seen = [], set()
        # A query from the root costs what the nodes of the range do (~0.15 ms for an edited
        # kernel, per set of kinds): where it would run, an item wholly inside a range is read
        # off its kept nodes, which the focused run's other analyses read anyway (issue 32).
        kept = search.query is not None or search.walked + root.descendant_count > min(WALK_BUDGET, _BUDGET.get())
        for start, end in ranges:
            found = _in_range(search, root, (start, max(start, end)), 0) if kept else \
                search.find(root, (start, max(start, end)))
            for n in found:
                if start <= n.start_byte < end and n.id not in seen:
                    seen.add(n.id)
                    got.append(n)
    if ordered:
        _preorder(got)
    return got


_RANGE_DEPTH = 4  # containers (`#if` arms) a range's edges are followed into before a query
_RANGE_CONTAINERS = frozenset({"ERROR", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                               "preproc_elifdef", "linkage_specification", "declaration_list"})


def _in_range(search: _Search, root: Node, byte_range: tuple[int, int], depth: int) -> list[Node]:
    """At least the nodes of `search`'s kinds under `root` that start inside `byte_range`, as
    its query with that byte range finds them: children wholly inside from their kept nodes
    (`_kept`) or a query of their own, containers (`#if` arms) across an edge followed down,
    other items across an edge queried with the range. The query leaves
    out an empty (MISSING) node at the range's very start: so does this."""
    start, end = byte_range
    kinds = search.kinds
    under = _kept(root) if depth else None  # (the root's nodes, where kept, are the whole file's)
    if under is not None:
        return [n for n in under.of(kinds) if n.start_byte != start or n.end_byte != start]
    if depth > _RANGE_DEPTH or (depth and root.type not in _RANGE_CONTAINERS) or root.child_count == 0:
        return captures(search.compiled(), root, byte_range).get(_CAPTURE, [])
    out: list[Node] = [root] if root.type in kinds and root.is_named and start < root.end_byte else []
    for c in root.children:
        cs, ce = c.start_byte, c.end_byte
        if ce <= start and not (cs == ce == start):
            continue
        if cs >= end:
            break
        if start <= cs and ce <= end:
            under = _kept(c)
            got = under.of(kinds) if under is not None else captures(search.compiled(), c).get(_CAPTURE, [])
            if c.has_error or cs == ce:  # an empty node at the start is not the query's
                got = [n for n in got if n.start_byte != start or n.end_byte != start]
            out += got
        else:
            out += _in_range(search, c, byte_range, depth + 1)
    return out


def _kept(root: Node) -> _Subtree | None:
    """`root`'s kept nodes, if it or (a function) its body has them: none are read here."""
    if root.descendant_count < SUBTREE_MIN:
        return None
    kept = current().table("walk.subtrees", _SUBTREES_KEPT)
    got = kept.get((root.id, root.start_byte, root.end_byte))
    if got is not None and got.root == root:
        return got
    if root.type != "function_definition":
        return None
    body = root.child_by_field_name("body")
    inner = kept.get((body.id, body.start_byte, body.end_byte)) if body is not None else None
    if inner is None or inner.root != body:
        return None
    return _subtree(root)


def nodes_once(root: Node, kinds: frozenset[str]) -> list[Node]:
    """`nodes_of_kinds(root, kinds)` for a root read once (a header's tree): its nodes are
    not kept for a second ask, and past the walk budget the query visits them in C."""
    got = _query(kinds).find(root)
    _preorder(got)
    return got


# A root asked for a second set of kinds (the race check asks a kernel's body for ten) gets
# its named nodes read once, each later set filtered from them: a walk costs ~0.3 us a node
# and a query ~0.1, a filter ~0.02. Small roots (an expression) are walked each time.
SUBTREE_MIN = 48  # descendants
# Per lint, dropped as the next starts (`forget`): every function's body, as the semantic
# family reads them all before the race check asks the kernels' again.
_SUBTREES_KEPT = 4096


class _Subtree:
    """The named nodes under one root, in pre-order, with their kinds."""

    __slots__ = ("root", "nodes", "types", "found", "in_order")

    def __init__(self, root: Node, body: _Subtree | None = None) -> None:
        """`body`: the kept nodes of `root`'s body, taken as they are (a function asked for
        after its body, as the race check's prefilter asks the kernels the semantic family read)."""
        self.root = root
        if body is None:
            self.nodes = nodes = _named(root)
            self.types = list(map(intern, map(_TYPE, nodes)))
        else:
            self.nodes, self.types = [root], [intern(root.type)]  # (a function definition: named)
            for child in root.children:
                if child == body.root:
                    self.nodes += body.nodes
                    self.types += body.types
                else:
                    found = _named(child)
                    self.nodes += found
                    self.types += map(intern, map(_TYPE, found))
        self.found: dict[frozenset[str], list[Node]] = {}
        # A cursor meets the named nodes of a tree without ERROR or MISSING nodes in the order
        # `_preorder` sorts into; a zero-width MISSING node can tie with a sibling's start.
        self.in_order = not root.has_error

    def of(self, kinds: frozenset[str]) -> list[Node]:
        """A new list each call: callers may sort or extend what they get."""
        got = self.found.get(kinds)
        if got is None:
            got = self.found[kinds] = list(compress(self.nodes, [t in kinds for t in self.types]))
        return list(got)


def _named(root: Node) -> list[Node]:
    out: list[Node] = []
    cursor = root.walk()
    while True:
        node = cursor.node
        if node.is_named:
            out.append(node)
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return out


def forget() -> None:
    """Drops the kept nodes (and the trees they hold): called as each lint starts."""
    current().table("walk.subtrees", _SUBTREES_KEPT).clear()


def _subtree(root: Node) -> _Subtree | None:
    """`root`'s nodes read once, from its second ask on (None: walk or query as before). Kept
    in the database by node id with the root itself, which keeps its tree alive: equal roots
    are the same node of the same tree (an id alone could be a subtree that an incremental
    parse shared between two trees, at other offsets)."""
    if root.descendant_count < SUBTREE_MIN:
        return None
    db = current()
    key = (root.id, root.start_byte, root.end_byte)
    kept = db.table("walk.subtrees", _SUBTREES_KEPT)
    got = kept.get(key)
    if got is not None and got.root == root:
        return got
    body = root.child_by_field_name("body") if root.type == "function_definition" else None
    inner = kept.get((body.id, body.start_byte, body.end_byte)) if body is not None else None
    return kept.put(key, _Subtree(root, inner if inner is not None and inner.root == body else None))


def _preorder(nodes: list[Node]) -> None:
    """Sorts `nodes` into pre-order: by start, the longer first, and of a node and its only
    child (same range) the parent first, the one with more descendants. Three stable sorts
    on C-level keys; a query's own order puts that parent first or last depending on where
    the query started, so ties cannot be left as found."""
    nodes.sort(key=_DESCENDANTS, reverse=True)
    nodes.sort(key=_END, reverse=True)
    nodes.sort(key=_START)


class KindIndex:
    """The nodes of a whole tree whose kinds are in `kinds`, found by one walk, in pre-order.

    A full lint reads one tree for several analyses (the model's function walks, the
    address-space expression visits and qualifier scan, gating): each used to run its own
    query, and a query visits every node of what it searches even when it captures few, about
    a third of the parse's time per pass. One pass for the union, sliced by byte range and
    filtered by kind with a mask per set of kinds (in C, by `compress`), costs far less. Only
    for trees without errors: byte ranges then decide what lies under a node (no empty MISSING
    nodes), and the only nodes asked about are the root and function bodies, whose ancestors
    all reach further."""

    def __init__(self, root: Node, kinds: frozenset[str]) -> None:
        """`root`'s tree has no errors (`of`): a cursor meets its nodes in pre-order. One walk
        costs about what the query's captures do (0.25 us a node), and skips its compile
        (2 ms) and `_preorder`'s three sorts (twice the captures' time)."""
        self.root = root
        self.kinds = kinds
        self.nodes = nodes = _walk(root, kinds, None)
        self._types = list(map(intern, map(_TYPE, nodes)))  # one string per kind, not per node
        self._starts = [n.start_byte for n in nodes]
        self._masks: dict[frozenset[str], list[bool]] = {}

    @classmethod
    def of(cls, root: Node, kinds: frozenset[str]) -> KindIndex | None:
        return None if root.has_error else cls(root, kinds)

    def _mask(self, kinds: frozenset[str]) -> list[bool]:
        mask = self._masks.get(kinds)
        if mask is None:
            mask = self._masks[kinds] = [t in kinds for t in self._types]
        return mask

    def under(self, node: Node, kinds: frozenset[str]) -> list[Node]:
        """`nodes_of_kinds(node, kinds)`, for the root or a node none of whose ancestors
        shares its range (a function body: braces and head surround it)."""
        if not kinds <= self.kinds:
            return nodes_of_kinds(node, kinds)
        s, e = node.start_byte, node.end_byte
        starts = self._starts
        i, j = bisect_left(starts, s), bisect_left(starts, e)
        while i < j and starts[i] == s and self.nodes[i].end_byte > e:
            i += 1  # an ancestor starting where `node` does: pre-order puts it first
        return list(compress(self.nodes[i:j], self._mask(kinds)[i:j]))

    def by_kind(self, kinds: frozenset[str]) -> dict[str, list[Node]]:
        """The whole tree's nodes of `kinds`, grouped by kind, each group in pre-order."""
        if not kinds <= self.kinds:
            found = nodes_of_kinds(self.root, kinds)
            pairs: Iterable[tuple[Node, str]] = zip(found, (n.type for n in found))
        else:
            mask = self._mask(kinds)
            pairs = zip(compress(self.nodes, mask), compress(self._types, mask))
        out: dict[str, list[Node]] = {}
        for n, t in pairs:
            if t in out:
                out[t].append(n)
            else:
                out[t] = [n]
        return out


def ancestor_of_kinds(node: Node | None, kinds: frozenset[str], limit: int) -> Node | None:
    """`node` or its nearest ancestor whose type is in `kinds`, at most `limit` steps up
    (a declaration around a declarator's name is a few parents away); None past that."""
    n = node
    for _ in range(limit):
        if n is None or n.type in kinds:
            return n
        n = n.parent
    return None


def in_ranges(ranges: list[tuple[int, int]] | None, offset: int) -> bool:
    """`offset` lies in one of `ranges` (sorted, disjoint); None stands for everything."""
    if ranges is None:
        return True
    if len(ranges) == 1:  # a keystroke's focus: the edited function (asked ~400 times a keystroke)
        start, end = ranges[0]
        return start <= offset < end
    i = bisect_right(ranges, (offset, _INF)) - 1
    return i >= 0 and ranges[i][0] <= offset < ranges[i][1]


_INF = float("inf")


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


__all__ = ["KindIndex", "ancestor_of_kinds", "in_ranges", "nodes_of_kinds", "outside"]


def head_end(definition: Node) -> int:
    """Where a function definition's head ends: its body's start (its own end without one)."""
    body = definition.child_by_field_name("body")
    return body.start_byte if body is not None else definition.end_byte


def is_kernel(definition: Node) -> bool:
    """A function definition written with `kernel`/`__kernel` (the grammar's specifier)."""
    return any(c.type == "kernel_specifier" for c in definition.children)


def name_node(definition: Node) -> Node | None:
    """The identifier a function definition defines (None where the tree does not say)."""
    d = definition.child_by_field_name("declarator")
    while d is not None and d.type != "identifier":
        if d.type in ("function_declarator", "pointer_declarator", "parenthesized_declarator",
                      "attributed_declarator"):
            d = d.child_by_field_name("declarator") or (d.named_children[0] if d.named_children else None)
        elif d.type == "macro_declarator":  # `int OVL f(...)`: the grammar's word after the type
            d = next((c for c in d.named_children if c.type != "macro_modifier"), None)
        else:
            return None
    return d


def items_in(root: Node, containers: frozenset[str], ranges: list[tuple[int, int]] | None) -> list[Node]:
    """The nodes a walk from `root` that enters only `containers` stops at (in source order),
    those that start in one of `ranges` (sorted, disjoint; None: all). Each range is entered at
    its first byte (`first_child_for_byte`, in C) and left at its end: a keystroke's focus is
    one definition among dozens, which the walk read and tested one by one (issue 32)."""
    if ranges is None:
        return _walk_items(root, containers)
    if root.type not in containers:  # (the root is the only item)
        return [root] if in_ranges(ranges, root.start_byte) else []
    out: list[Node] = []
    for start, end in ranges:
        if start <= 0:  # (no byte before the first to search from: filter the whole walk)
            out += [n for n in _walk_items(root, containers) if start <= n.start_byte < end]
            continue
        # The first child ending at `start` or later: a zero-width item at `start` included.
        stack: list[Node | None] = [root.first_child_for_byte(start - 1)]
        while stack:
            n = stack.pop()
            if n is None or n.start_byte >= end:  # (the siblings after it start later still)
                continue
            stack.append(n.next_sibling)
            if n.type in containers:
                stack.append(n.first_child_for_byte(start - 1))
            elif n.start_byte >= start:
                out.append(n)
    return out


def _walk_items(root: Node, containers: frozenset[str]) -> list[Node]:
    out: list[Node] = []
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in containers:
            stack.extend(reversed(n.children))
        else:
            out.append(n)
    return out
