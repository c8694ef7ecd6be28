"""The shared KindIndex answers exactly what a query per question would, and a full lint
with it reports exactly what a lint without it reports."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.gating.uses import VISIT_ALL, _visited
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.model.walk import KindIndex, nodes_of_kinds
from cllint.analysis.rules import _model
from cllint.analysis.syntax import parse
from cllint.analysis.target import Target

ROOT = Path(__file__).resolve().parents[2]
KERNELS = sorted([*(ROOT / "examples").glob("*.cl"), *(ROOT / "tests" / "rules" / "fixtures").rglob("*.cl")])

# Bodies that share their start with an enclosing node of an indexed kind, nested
# same-kind nodes, comments and skipped branches: the cases where slicing by bytes could go wrong.
EDGE = b"""
#define N 4
typedef struct { global int *p; } holder;
int f(int x) { return x; }
kernel void k(global int *out, local float *tmp, constant int *c) {
    // comment
    out[0] = f(f(c[0])) + (int) tmp[0];
#if 0
    out[1] = nothing_here;
#endif
    { int y = N; { out[y] = y; } }
    holder h = { out }; h.p[0] = 1;
    float d = 1.5;
}
"""


def _sources() -> list[tuple[str, bytes]]:
    return [("edge", EDGE), *((p.name, p.read_bytes()) for p in KERNELS)]


def _ids(nodes) -> list[int]:  # noqa: ANN001
    return [n.id for n in nodes]


@pytest.mark.parametrize(("name", "src"), _sources(), ids=[n for n, _ in _sources()])
def test_slices_equal_queries(name: str, src: bytes) -> None:
    tree = parse(src)
    index = KindIndex.of(tree.root_node, _model._indexed())
    if index is None:
        assert tree.root_node.has_error
        return
    roots = [tree.root_node, *(n.child_by_field_name("body") for n in index.nodes
                               if n.type == "function_definition")]
    kinds = [frozenset({"type_qualifier"}), frozenset({"identifier", "call_expression"}), _model._indexed()]
    for root in roots:
        for k in kinds:
            assert _ids(index.under(root, k)) == _ids(nodes_of_kinds(root, k))
    # Kinds it does not hold: answered by a query, not silently empty.
    assert _ids(index.under(tree.root_node, frozenset({"expression_statement"}))) == \
        _ids(nodes_of_kinds(tree.root_node, frozenset({"expression_statement"})))
    grouped = index.by_kind(VISIT_ALL)
    expected = _visited(tree.root_node, None)
    assert {k: sorted(_ids(v)) for k, v in grouped.items()} == {k: sorted(_ids(v)) for k, v in expected.items()}


def test_broken_tree_gets_no_index() -> None:
    tree = parse(b"kernel void k(global int *p) { p[0] = ; }")
    assert KindIndex.of(tree.root_node, _model._indexed()) is None


@pytest.mark.parametrize(("name", "src"), _sources(), ids=[n for n, _ in _sources()])
def test_lint_is_the_same_without_the_index(name: str, src: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = parse(src)
    for options in (LintOptions(), LintOptions(target=Target.preset("CL2.0"), mode="target")):
        shared = lint_tree(name, src, tree, options)
        with monkeypatch.context() as m:
            # The one place an index is made: every family then runs its own queries.
            m.setattr(KindIndex, "of", classmethod(lambda cls, root, kinds: None))
            alone = lint_tree(name, src, tree, options)
        assert [(d.code, d.span.start, d.span.end, d.message) for d in shared] == \
            [(d.code, d.span.start, d.span.end, d.message) for d in alone]
