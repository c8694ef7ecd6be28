"""Held out (issue 32, session 19): ranged `nodes_of_kinds` on items under `#if` arms and on
a file whose error recovery leaves MISSING nodes, against the query over the whole tree."""

from __future__ import annotations

from test_walk_ranges_kept import _asked, _ids, _reference  # the tune half's reference and asker

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.syntax import parse

GUARDED = b"""#ifdef USE_HALF
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void h(global half *p) { p[0] = p[1]; }
#else
kernel void h(global float *p) { p[0] = p[1] + 1.0f; }
#endif
#if defined(A) && B > 2
int twice(int v) { return 2 * v; }
#endif
kernel void main_k(global int *o) { o[get_global_id(0)] = twice(3); }
"""
MISSING = b"""int f(int x) { return x + ; }
int g(int y) { int z = (y * ; return z }
kernel void k(global int *o) { o[0] = f(1) + g(2) }
"""
KINDS = [frozenset({"identifier"}), frozenset({"call_expression", "number_literal", "ERROR"}),
         frozenset({"function_definition", "preproc_ifdef", "preproc_if", "return_statement"})]


def _definitions(node, out):
    if node.type == "function_definition":
        out.append(node)
    for c in node.children:
        _definitions(c, out)
    return out


def test_functions_under_if_arms_equal_the_query() -> None:
    tree = parse(GUARDED)
    for d in _definitions(tree.root_node, []):
        for ranges in ([(d.start_byte, d.end_byte)], [(0, d.start_byte), (d.end_byte, len(GUARDED) + 1)]):
            for kinds in KINDS:
                assert _ids(nodes_of_kinds(tree.root_node, kinds, ranges=ranges)) == \
                    _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))
                for got in _asked(tree.root_node, kinds, ranges):
                    assert _ids(got) == _ids(_reference(tree.root_node, kinds, ranges)), (ranges, sorted(kinds))


def test_missing_nodes_at_range_edges_equal_the_query() -> None:
    tree = parse(MISSING)
    edges = sorted({n for d in _definitions(tree.root_node, []) for n in (d.start_byte, d.end_byte)} |
                   {i for i in range(len(MISSING)) if MISSING[i:i + 1] in b";)}"})
    for a in edges:
        for b in edges:
            if a < b:
                for kinds in KINDS:
                    for got in _asked(tree.root_node, kinds, [(a, b)], ordered=False):
                        assert sorted(_ids(got)) == sorted(_ids(_reference(tree.root_node, kinds, [(a, b)]))), \
                            ((a, b), sorted(kinds))
