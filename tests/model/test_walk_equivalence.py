"""FunctionModel's query-driven walk gives exactly what the node-by-node walk gives."""

from __future__ import annotations

import pytest

from cllint.analysis.model import SemanticModel, symbols
from cllint.analysis.model.walk import KindIndex
from cllint.analysis.syntax import parse
from cllint.analysis.target import Target

SOURCES = {
    "scopes": """
typedef int myint;
int g;
kernel void k(global float *out, int n) {
    int i = get_global_id(0), j = i + n;
    for (int i = 0; i < n; i++) { float y = out[i] * i; out[i] = y; }
    { int i = j; out[i] = i; }
    if (n) { local int shared; shared = g; }
    myint m = (myint) n + sizeof(myint) + sizeof(m);
    out[0] = m + CLK_LOCAL_MEM_FENCE;
}
""",
    "local types": """
kernel void k(global int *p) {
    typedef struct { int a; int b; } pair;
    struct tag { int x; } t;
    enum e { A, B = A + 2 } v = B;
    pair q = (pair){1, 2};
    t.x = q.a + v + A;
    p[0] = ((struct tag *)p)->x + t.x + q.b;
    int arr[A + 3];
    arr[B] = (int) sizeof(struct tag);
}
""",
    "blocks": """
kernel void k(global int *p) {
    int x = 1;
    void (^b)(int) = ^(int y) { p[y] = x + y; };
    int (^c)(void) = ^{ return x; };
    b(c());
}
""",
    "macros": """
#define LOCAL_VK __local
#define PRIVATE_AS
#define SIZE 4
kernel void k(global uint *out) {
    LOCAL_VK uint s[SIZE];
    PRIVATE_AS uint w[SIZE] = { 0 };
    s[0] = w[0];
    out[0] = s[0];
#if SIZE > 2
    out[1] = SIZE;
#endif
    // a comment
    out[2] = "str"[0];
}
""",
    "nested and shadowing": """
float f(float x) { return x; }
kernel void k(global float *o) {
    float f = 2.0f;
    o[0] = f;
    { float o = 1; (void) o; }
    for (;;) { int q = 0; if (q) break; }
    o[1] = (float) (int) o[0];
}
""",
    "vector literals": """
kernel void k(global float4 *o) {
    float4 v = (float4)(1.0f, 2.0f, 3.0f, 4.0f);
    o[0] = v.xyzw + (float4)(v.x);
    o[1].y = v.s0;
}
""",
    "broken: missing": """
kernel void k(global int *p) {
    int a = (1 + );
    p[0] = (int);
    for (int i = 0; i < ; i++) { p[i] = -; }
    if () p[0] = a;
}
""",
    "broken: error": """
kernel void k(global int *p) {
    int a = 1 @ 2;
    p[a] = a $ a;
    struct { int x; } s; s.x = a; s. = 3;
}
""",
    "broken: recovered": """
kernel void k(global int *p) {
    int a = 1;
    p[0] = p[;
    x = ->y;
    p[0] = f(1, );
    int b[] = {1,,2};
    for (int i = 0; i < 3; i++) {
        p[i] = a;
    }
}
""",
}


def _symbol(sym):  # noqa: ANN001, ANN202
    if sym is None:
        return None
    return (sym.name, sym.kind, sym.node.id if sym.node is not None else None, sym.scope_start,
            repr(sym.type), sym.space)


def _scope(sc):  # noqa: ANN001, ANN202
    return (sc.kind, sc.start, sc.end, sorted((k, _symbol(v)) for k, v in sc.symbols.items()),
            [_scope(c) for c in sc.children])


def _facts(fm):  # noqa: ANN001, ANN202
    return (sorted((k, _symbol(v)) for k, v in fm.refs.items()), [_symbol(s) for s in fm.locals],
            [c.id for c in fm.calls], sorted(fm._callees), _scope(fm.scope), sorted(fm._typedefs.maps[0]),
            sorted(fm._tags.maps[0]), sorted(fm._typedef_symbols), sorted(fm.field_nodes))


def _models(src: bytes, tree, monkeypatch, node_by_node: bool, shared: bool = False):  # noqa: ANN001, ANN202
    with monkeypatch.context() as m:
        if node_by_node:
            m.setattr(symbols.FunctionModel, "_walk_captured", lambda self, body: False)
        kinds = KindIndex.of(tree.root_node, symbols.WALKED) if shared else None
        return [_facts(fm) for fm in SemanticModel(tree, src, Target.preset("CL2.0"), kinds=kinds).function_models()]


@pytest.mark.parametrize("name", sorted(SOURCES))
def test_query_walk_matches_node_walk(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    src = SOURCES[name].encode()
    tree = parse(src)
    fast = _models(src, tree, monkeypatch, node_by_node=False)
    slow = _models(src, tree, monkeypatch, node_by_node=True)
    assert fast
    assert fast == slow
    # A full lint's walk reads the nodes off the tree's shared index (clean trees only).
    assert _models(src, tree, monkeypatch, node_by_node=False, shared=True) == slow


def test_missing_nodes_take_the_node_walk() -> None:
    src = SOURCES["broken: missing"].encode()
    tree = parse(src)
    m = SemanticModel(tree, src, Target.preset("CL2.0"))
    fm = m.function_models()[0]
    body = fm.node.child_by_field_name("body")
    assert fm._walk_captured(body) is False  # declines before changing anything
