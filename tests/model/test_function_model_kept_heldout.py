"""Held out (issue 32, session 19): the body walk from kept nodes gives what the lint's kind
index gives on block literals, nested scopes and enum declarations in bodies, and on a
body with a MISSING node the same facts twice over (kept nodes asked again)."""

from __future__ import annotations

from test_function_model_kept import _facts  # the tune half's facts of a function model

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import WALKED
from cllint.analysis.model.walk import KindIndex
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL2.0")

SOURCE = b"""kernel void k(global int *o, int n) {
    enum mode { A, B = 3 } m = B;
    int (^twice)(int) = ^(int v) { return v * 2 + n; };
    for (int i = 0; i < n; i++) {
        int t = twice(i);
        if (t > A) { int u = t; o[i] = u + m; } else o[i] = -t;
    }
    union { int i; float f; } bits;
    bits.f = 1.0f;
    o[0] = bits.i;
}
"""
BROKEN = b"int f(int x) {\n    int y = x + ;\n    return y + x\n}\n"


def test_blocks_enums_unions_as_with_the_index() -> None:
    tree = parse(SOURCE)
    indexed = SemanticModel(tree, SOURCE, TARGET, kinds=KindIndex(tree.root_node, WALKED))
    plain = SemanticModel(tree, SOURCE, TARGET)
    for d in indexed.index.definitions:
        assert _facts(plain.function_at_node(d)) == _facts(indexed.function_at_node(d))


def test_broken_body_reads_the_same_twice() -> None:
    tree = parse(BROKEN)
    first = _facts(SemanticModel(tree, BROKEN, TARGET).function("f"))
    second = _facts(SemanticModel(tree, BROKEN, TARGET).function("f"))
    assert first == second
    assert ("y", "LOCAL") in {(name, kind) for _, name, kind in first[0]}
