"""The whole-tree KindIndex read by one cursor walk (issue 32, session 18): the nodes a query of
its kinds captures, sorted into pre-order, are the nodes the walk meets, in the order it meets
them, on trees without errors (the only ones indexed). The walk skips the query's compile and
the three sorts. Edge cases: a root and an only item sharing their range, nodes nested in
their only child, macros, preprocessor arms, deep nesting. The last three (held out) were
written with the rest before the code and run once it was done."""

from __future__ import annotations

import pytest
from tree_sitter import Node

from cllint.analysis.captures import captures
from cllint.analysis.model.walk import KindIndex, _preorder, _query
from cllint.analysis.rules import _model
from cllint.analysis.syntax import parse

TUNE = {
    "one_function_is_the_file": b"kernel void k(global int *o) { o[0] = 1; }",
    "parentheses_and_casts": b"kernel void k(global int *o, float x) { o[0] = ((int)((x))); (void)(o); }\n",
    "macro_statement": b"#define STORE(p, v) (p)[0] = (v)\n"
                       b"kernel void k(global int *o) { STORE(o, 1); int a[2] = {1, 2}; o[1] = a[1]; }\n",
}

HELDOUT = {
    "preprocessor_arms": b"#if defined(FAST)\nint f(int x) { return x; }\n#else\nint f(int x) { return x + 1; }\n#endif\n"
                         b"kernel void k(global int *o) {\n#ifdef A\n  o[0] = f(1);\n#else\n  o[0] = f(2);\n#endif\n}\n",
    "only_a_comment": b"// nothing here\n",
    "deep_blocks": b"kernel void k(global int *o) " + b"{ " * 200 + b"o[0] = 1; " + b"} " * 200 + b"\n",
}


def _old_order(root: Node) -> list[int]:
    found = captures(_query(_model._indexed()).compiled(), root).get("n", [])
    _preorder(found)
    return [n.id for n in found]


def _check(source: bytes) -> None:
    tree = parse(source)
    assert not tree.root_node.has_error
    index = KindIndex.of(tree.root_node, _model._indexed())
    assert index is not None
    assert [n.id for n in index.nodes] == _old_order(tree.root_node)


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    _check(TUNE[name])


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    _check(HELDOUT[name])
