"""A focused run's ranges (issue 32, session 19): `nodes_of_kinds(root, kinds, ranges=...)`
reads a top-level item that lies wholly inside a range from that item's own kept nodes (the
ones the other analyses of the edited function read), not by a query over the whole tree with
a byte range; the answer is the query's, node for node: what starts inside a range, a MISSING
node at a range's very start left out as the query leaves it."""

from __future__ import annotations

import contextvars
import random

from tree_sitter import Query

from cllint.analysis import captures as captures_module
from cllint.analysis.model.walk import _preorder, nodes_of_kinds, queries_at_once
from cllint.analysis.syntax import parse
from cllint.grammar import language

SOURCE = b"""typedef struct { int a; float b; } pair;
constant int LUT[2] = {1, 2};
void helper(global float *p, int i) { p[i] = p[i] * 2.0f + LUT[i & 1]; }
kernel void k(global float *a, local float *tmp) {
    int gid = get_global_id(0);
    tmp[get_local_id(0)] = a[gid];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int i = 0; i < 4; ++i) { helper(a, gid + i); }
    pair q = {1, 2.0f};
    a[gid] = q.b + tmp[0];
}
int last(int x) { return x + 1; }
"""
BROKEN = SOURCE.replace(b"return x + 1;", b"return x + ;").replace(b"barrier(CLK_LOCAL_MEM_FENCE);",
                                                                    b"barrier(CLK_LOCAL_MEM_FENCE")
KINDS = [frozenset({"identifier"}), frozenset({"call_expression", "identifier", "ERROR"}),
         frozenset({"field_declaration", "type_qualifier", "attribute_specifier"}),
         frozenset({"function_definition", "compound_statement", "declaration"})]


def _reference(root, kinds, ranges):
    """The query over the whole tree, one byte range at a time (what nodes_of_kinds did)."""
    known = [k for k in sorted(kinds) if language().id_for_node_kind(k, True) is not None]
    query = Query(language(), "[" + " ".join(f"({k})" for k in known) + "] @n")
    got, seen = [], set()
    for start, end in ranges:
        for n in captures_module._run(query, root, (start, max(start, end))).get("n", []):
            if start <= n.start_byte < end and n.id not in seen:
                seen.add(n.id)
                got.append(n)
    _preorder(got)
    return got


def _asked(root, kinds, ranges, ordered=True):
    """What the server's analysis thread gets (queries from the first use); in a file's
    first focused run nothing is kept, in its second the items' nodes are."""
    def ask():
        queries_at_once()
        first = nodes_of_kinds(root, kinds, ordered=ordered, ranges=ranges)
        for c in root.children:  # the items read whole, as the other analyses do
            nodes_of_kinds(c, kinds)
            body = c.child_by_field_name("body")
            if body is not None:
                nodes_of_kinds(body, kinds)
        second = nodes_of_kinds(root, kinds, ordered=ordered, ranges=ranges)
        return first, second
    return contextvars.copy_context().run(ask)


def _ids(nodes):
    return [(n.id, n.type, n.start_byte, n.end_byte) for n in nodes]


def _functions(tree):
    return [c for c in tree.root_node.children if c.type == "function_definition"]


def test_whole_functions_equal_the_query() -> None:
    tree = parse(SOURCE)
    fs = _functions(tree)
    for ranges in ([(fs[1].start_byte, fs[1].end_byte)], [(f.start_byte, f.end_byte) for f in fs],
                   [(0, fs[0].start_byte), (fs[1].start_byte, len(SOURCE) + 1)]):
        for kinds in KINDS:
            assert _ids(nodes_of_kinds(tree.root_node, kinds, ranges=ranges)) == \
                _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))
            for got in _asked(tree.root_node, kinds, ranges):
                assert _ids(got) == _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))


def test_broken_functions_equal_the_query() -> None:
    tree = parse(BROKEN)
    assert tree.root_node.has_error
    fs = _functions(tree)
    for f in fs:
        for ranges in ([(f.start_byte, f.end_byte)], [(f.start_byte, len(BROKEN) + 1)]):
            for kinds in KINDS:
                assert sorted(_ids(nodes_of_kinds(tree.root_node, kinds, ordered=False, ranges=ranges))) == \
                    sorted(_ids(_reference(tree.root_node, kinds, ranges))), (ranges, sorted(kinds))
                for got in _asked(tree.root_node, kinds, ranges, ordered=False):
                    assert sorted(_ids(got)) == sorted(_ids(_reference(tree.root_node, kinds, ranges))), ranges


def test_random_ranges_equal_the_query() -> None:
    rng = random.Random(19)
    for source in (SOURCE, BROKEN):
        tree = parse(source)
        for _ in range(150):
            cuts = sorted(rng.sample(range(len(source) + 2), 4))
            ranges = [(cuts[0], cuts[1]), (cuts[2], cuts[3])]
            kinds = rng.choice(KINDS)
            assert _ids(nodes_of_kinds(tree.root_node, kinds, ranges=ranges)) == \
                _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))
            for got in _asked(tree.root_node, kinds, ranges):
                assert _ids(got) == _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))


def test_a_whole_function_is_not_queried_through_the_root(monkeypatch) -> None:
    tree = parse(SOURCE)
    kernel = _functions(tree)[1]
    asked = []
    real = captures_module._run

    def spy(query, node, byte_range):
        asked.append((node.type, byte_range))
        return real(query, node, byte_range)

    monkeypatch.setattr(captures_module, "_run", spy)

    def ask():  # as the server's analysis thread asks: queries from the first use
        queries_at_once()
        return nodes_of_kinds(tree.root_node, frozenset({"call_expression"}),
                              ranges=[(kernel.start_byte, kernel.end_byte)])

    got = contextvars.copy_context().run(ask)
    assert [n.type for n in got] == ["call_expression"] * 4
    assert not [a for a in asked if a[0] == "translation_unit"], asked
