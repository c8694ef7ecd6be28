"""Kept nodes of a root without errors are handed out in the order they were read, with no
sort (issue 32, session 15): a cursor walk of a tree without ERROR or MISSING nodes meets its
named nodes in pre-order, by start, the longer first, a parent before its only child. A root
with errors (zero-width MISSING nodes may tie with a sibling's start) is still sorted.

Cases: the rule fixtures not in test_walk_subtrees.py's third ([0::3] tuned on, [2::3]
held out), every root and body, each set asked twice (the second answer comes from the kept
nodes): the same nodes in the same order as a walk of its own, sorted into pre-order."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.model import walk
from cllint.analysis.model.walk import _preorder, _walk, nodes_of_kinds
from cllint.analysis.syntax import parse

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "rules" / "fixtures").rglob("*.cl"))
KINDS = [
    frozenset({"identifier"}),
    frozenset({"call_expression", "identifier", "ERROR"}),
    frozenset({"compound_statement", "expression_statement", "parenthesized_expression", "number_literal"}),
    frozenset({"declaration", "init_declarator", "identifier", "primitive_type", "pointer_declarator"}),
]


def _ids(nodes):
    return [(n.id, n.type, n.start_byte, n.end_byte) for n in nodes]


def _roots(tree):
    out = [tree.root_node]
    out += [n.child_by_field_name("body") for n in _walk(tree.root_node, frozenset({"function_definition"}), None)]
    return [r for r in out if r is not None]


def _same_as_walk(source: bytes) -> None:
    tree = parse(source)
    for root in _roots(tree):
        for kinds in KINDS + KINDS:
            walked = _walk(root, kinds, None)
            _preorder(walked)
            assert _ids(nodes_of_kinds(root, kinds)) == _ids(walked), sorted(kinds)


@pytest.mark.parametrize("path", FIXTURES[0::3], ids=lambda p: p.name)
def test_tune_fixtures(path: Path) -> None:
    _same_as_walk(path.read_bytes())


@pytest.mark.parametrize("path", FIXTURES[2::3], ids=lambda p: p.name)
def test_held_out_fixtures(path: Path) -> None:
    _same_as_walk(path.read_bytes())


def _sorts(monkeypatch: pytest.MonkeyPatch, source: bytes) -> int:
    root = parse(source).root_node
    assert root.descendant_count >= walk.SUBTREE_MIN
    sorted_lists = []
    real = walk._preorder
    monkeypatch.setattr(walk, "_preorder", lambda nodes: sorted_lists.append(len(nodes)) or real(nodes))
    for kinds in KINDS:
        nodes_of_kinds(root, kinds)
    return len(sorted_lists)


def test_kept_nodes_of_a_clean_root_are_not_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(b"  a[%d] = b[%d] + c;\n" % (i, i) for i in range(20))
    assert _sorts(monkeypatch, b"kernel void k(global int *a, global int *b, int c) {\n" + body + b"}\n") == 0


def test_kept_nodes_of_a_broken_root_are_sorted(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(b"  a[%d] = b[%d] + ;\n" % (i, i) for i in range(20))
    assert _sorts(monkeypatch, b"kernel void k(global int *a, global int *b, int c) {\n" + body + b"}\n") == len(KINDS)
