"""A function's body walk without the lint's kind index (an editor's focused run, issue 32,
session 19) reads the body's named nodes once and keeps them for the analyses that ask the
same body next: the body's facts (references, locals, scopes, calls) are those the index's
walk gives, on whole and on broken bodies."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.model import walk
from cllint.analysis.model.symbols import WALKED
from cllint.analysis.model.walk import KindIndex
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL3.0")

SOURCE = b"""typedef struct { float x, y; } pair_t;
float helper(global const float *p, int n) { return p[n] * 2.0f; }
kernel void k(global float *out, local float *tmp, pair_t q, int n) {
    int i = get_global_id(0);
    { float i2 = (float)i; tmp[get_local_id(0)] = i2 + q.x; }
    for (int j = 0; j < n; ++j) { out[i] += helper(out, j); }
    struct inner { int a; } s = {1};
    typedef int word;
    word w = sizeof(word) + s.a;
    out[i] = (float2)(1.0f, 2.0f).x + w;
}
"""
BROKEN = SOURCE.replace(b"out[i] += helper(out, j);", b"out[i] += helper(out, ;").replace(
    b"word w = sizeof(word) + s.a;", b"word w = sizeof(word) + s.")


def _facts(fm):
    refs = sorted((i, s.name, s.kind.name) for i, s in fm.refs.items())
    scopes, todo = [], [fm.scope]
    while todo:
        sc = todo.pop()
        scopes.append((sc.start, sc.end, sorted(sc.symbols)))
        todo.extend(sc.children)
    return refs, sorted(scopes), [s.name for s in fm.locals], sorted(c.id for c in fm.calls)


def _models(src):
    tree = parse(src)
    indexed = SemanticModel(tree, src, TARGET, kinds=KindIndex(tree.root_node, WALKED))
    plain = SemanticModel(tree, src, TARGET)
    return tree, indexed, plain


def test_whole_bodies_read_as_with_the_index() -> None:
    tree, indexed, plain = _models(SOURCE)
    for d in indexed.index.definitions:
        assert _facts(plain.function_at_node(d)) == _facts(indexed.function_at_node(d))


def test_broken_bodies_read_as_a_query_of_their_own() -> None:
    """A tree with errors has no index: the same facts as a model built before this change
    read them (a query of the body, sorted), here with the body's kept nodes."""
    tree = parse(BROKEN)
    assert tree.root_node.has_error
    model = SemanticModel(tree, BROKEN, TARGET)
    fm = model.function("k")
    names = {s.name for s in fm.locals}
    assert {"i", "i2", "j", "s", "w"} <= names
    i_refs = [n for n, s in fm.refs.items() if s.name == "i" and s.kind.name == "LOCAL"]
    assert len(i_refs) >= 4


def test_the_body_nodes_are_kept_for_the_next_ask() -> None:
    tree = parse(SOURCE)
    model = SemanticModel(tree, SOURCE, TARGET)
    fm = model.function("k")
    body = fm.node.child_by_field_name("body")
    walk.forget()
    model._functions.clear()
    model.function("k")
    assert walk._kept(body) is not None
