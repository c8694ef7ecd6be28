"""`nodes_of_kinds` walks small trees in Python and queries large ones (issue 32: each query
compiled costs ~2 ms of a run's start): both give the same nodes in the same order, on every
fixture (broken ones included), for the kind sets the analyses ask, whole and by byte range."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.model import walk
from cllint.analysis.model.walk import _preorder, _query, _walk, nodes_of_kinds
from cllint.analysis.syntax import parse

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "rules" / "fixtures").rglob("*.cl"))
KINDS = [
    frozenset({"identifier"}),
    frozenset({"call_expression", "identifier"}),
    frozenset({"for_statement", "while_statement"}),
    frozenset({"ERROR", "identifier", "type_identifier", "macro_invocation", "field_expression"}),
    frozenset({"preproc_call", "preproc_if", "preproc_ifdef", "identifier", "type_identifier"}),
    frozenset({"declaration", "compound_statement", "comment", "no_such_kind"}),
]
BROKEN = [
    b"kernel void k(global float *a) { a[0] = ; if (x { barrier(1); }\n",
    b"kernel void k( { int x = y +; }\n#if A\nvoid f() {\n",
    b"void f() { g(1, 2 }\n",
]


def _queried(root, kinds, byte_range=None):
    return walk.captures(_query(kinds).compiled(), root, byte_range).get("n", [])


def _ids(nodes):
    return [(n.id, n.type, n.start_byte, n.end_byte) for n in nodes]


@pytest.mark.parametrize("source", [p.read_bytes() for p in FIXTURES[::3]] + BROKEN)
def test_walking_finds_what_the_query_finds(source: bytes) -> None:
    root = parse(source).root_node
    for kinds in KINDS:
        walked, queried = _walk(root, kinds, None), _queried(root, kinds)
        _preorder(walked)
        _preorder(queried)
        assert _ids(walked) == _ids(queried), sorted(kinds)
        for start in range(0, len(source), max(1, len(source) // 5)):
            rng = (start, min(len(source), start + 40))
            inside = [n for n in _walk(root, kinds, rng) if rng[0] <= n.start_byte < rng[1]]
            assert sorted(_ids(inside)) == sorted(
                _ids([n for n in _queried(root, kinds, rng) if rng[0] <= n.start_byte < rng[1]]))


def test_a_set_walks_until_its_budget_then_compiles(monkeypatch: pytest.MonkeyPatch) -> None:
    kinds = frozenset({"identifier", "number_literal", "test_walk_search"})  # a set no analysis asks
    search = _query(kinds)
    assert search.query is None and search.walked == 0
    small = parse(b"kernel void k(global int *a) { a[0] = 1; }\n").root_node
    monkeypatch.setattr(walk, "WALK_BUDGET", small.descendant_count * 2)
    first = nodes_of_kinds(small, kinds)
    assert search.query is None and search.walked == small.descendant_count
    assert nodes_of_kinds(small, kinds) == first and search.query is None
    assert nodes_of_kinds(small, kinds) == first and search.query is not None  # past the budget
