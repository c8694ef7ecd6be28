"""A root asked for several sets of kinds (the race check asks a kernel's body for ten) has its
named nodes read once and each set filtered from them (issue 32, session 14): the same nodes in
the same order as a walk of its own, on every fixture, broken ones included; a root of another
tree at the same node id is not served another tree's nodes."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.model import walk
from cllint.analysis.model.walk import _preorder, _walk, nodes_of_kinds
from cllint.analysis.syntax import parse

FIXTURES = sorted((Path(__file__).resolve().parents[1] / "rules" / "fixtures").rglob("*.cl"))
KINDS = [
    frozenset({"identifier"}),
    frozenset({"call_expression", "identifier"}),
    frozenset({"for_statement", "while_statement", "do_statement"}),
    frozenset({"init_declarator", "assignment_expression", "update_expression", "pointer_expression"}),
    frozenset({"ERROR", "identifier", "type_identifier", "macro_invocation", "field_expression"}),
    frozenset({"declaration", "compound_statement", "comment", "no_such_kind", "("}),
]
BROKEN = [
    b"kernel void k(global float *a) { a[0] = ; if (x { barrier(1); }\n" * 4,
    b"kernel void k( { int x = y +; }\n#if A\nvoid f() {\n" * 4,
]


def _ids(nodes):
    return [(n.id, n.type, n.start_byte, n.end_byte) for n in nodes]


def _roots(tree):
    """The root and every function body: what the analyses ask for nodes under."""
    out = [tree.root_node]
    out += [n.child_by_field_name("body") for n in _walk(tree.root_node, frozenset({"function_definition"}), None)]
    return [r for r in out if r is not None]


@pytest.mark.parametrize("source", [p.read_bytes() for p in FIXTURES[1::3]] + BROKEN)
def test_filtered_nodes_are_those_a_walk_finds(source: bytes) -> None:
    tree = parse(source)
    for root in _roots(tree):
        for kinds in KINDS + KINDS:  # the second round is served from the root's nodes
            walked = _walk(root, kinds, None)
            _preorder(walked)
            assert _ids(nodes_of_kinds(root, kinds)) == _ids(walked), sorted(kinds)
            assert sorted(_ids(nodes_of_kinds(root, kinds, ordered=False))) == sorted(_ids(walked))


def test_a_large_root_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(b"  a[%d] = b[%d] + c;\n" % (i, i) for i in range(20))
    root = parse(b"kernel void k(global int *a, global int *b, int c) {\n" + body + b"}\n").root_node
    assert root.descendant_count >= walk.SUBTREE_MIN
    read = []
    real = walk._named
    monkeypatch.setattr(walk, "_named", lambda r: read.append(r.id) or real(r))
    for kinds in KINDS:
        nodes_of_kinds(root, kinds)
    assert read == [root.id]
    got = nodes_of_kinds(root, KINDS[0])
    got.append(root)  # a caller's list is its own
    assert root not in nodes_of_kinds(root, KINDS[0])


def test_a_small_root_is_walked_each_time(monkeypatch: pytest.MonkeyPatch) -> None:
    root = parse(b"kernel void k(global int *a) { a[0] = 1; }\n").root_node
    assert root.descendant_count < walk.SUBTREE_MIN
    monkeypatch.setattr(walk, "_named", lambda r: pytest.fail("read whole"))
    assert [n.type for n in nodes_of_kinds(root, frozenset({"number_literal"}))] == ["number_literal"] * 2


def test_another_trees_root_gets_its_own_nodes() -> None:
    text = b"kernel void k(global int *a) {\n" + b"  a[0] = a[1] + a[2] * a[3];\n" * 6 + b"}\n"
    first, second = parse(text), parse(text.replace(b"a[3]", b"a[7]"))
    kinds = frozenset({"number_literal"})
    assert [n.text for n in nodes_of_kinds(first.root_node, kinds)][-1] == b"3"
    got = nodes_of_kinds(second.root_node, kinds)
    assert [n.text for n in got][-1] == b"7"
    assert all(n.tree is second for n in got) if hasattr(got[0], "tree") else True


@pytest.mark.parametrize("source", [p.read_bytes() for p in FIXTURES[2::7]] + BROKEN)
def test_a_function_asked_after_its_body_takes_the_bodys_nodes(source: bytes) -> None:
    tree = parse(source)
    for func in _walk(tree.root_node, frozenset({"function_definition"}), None):
        body = func.child_by_field_name("body")
        if body is None or body.descendant_count < walk.SUBTREE_MIN:
            continue
        nodes_of_kinds(body, KINDS[0])
        for kinds in KINDS:
            walked = _walk(func, kinds, None)
            _preorder(walked)
            assert _ids(nodes_of_kinds(func, kinds)) == _ids(walked), sorted(kinds)


def test_the_body_is_not_read_again(monkeypatch: pytest.MonkeyPatch) -> None:
    body = b"".join(b"  a[%d] = b[%d] + c;\n" % (i, i) for i in range(20))
    func = parse(b"kernel void k(global int *a, global int *b, int c) {\n" + body + b"}\n").root_node.children[0]
    nodes_of_kinds(func.child_by_field_name("body"), KINDS[0])
    read = []
    real = walk._named
    monkeypatch.setattr(walk, "_named", lambda r: read.append(r.type) or real(r))
    nodes_of_kinds(func, KINDS[1])
    assert "compound_statement" not in read and read
