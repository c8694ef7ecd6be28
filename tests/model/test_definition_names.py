"""`SemanticModel.definition_names()`: each definition with the name its declarator gives
(walk.name_node's reading), read once per model and shared by the address-space overload sets
and the build's overload sets (issue 32, session 21: each read all 67 heads of darktable's
basic.cl per keystroke). Held-out case: test_definition_names_heldout.py."""

from __future__ import annotations

import pytest

from cllint.analysis.db import Host
from cllint.analysis.lint import LintOptions
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import name_node
from cllint.analysis.target import Target
from cllint.grammar import parse

SOURCE = b"""float plain(float x) { return x; }
__global float *ptr_ret(__global float *p) { return p + 1; }
float (paren)(float y) { return y; }
int OVL macro_word(int v) { return v; }
kernel void k(__global float *o) { o[0] = plain(1.0f); }
"""


def _model(src: bytes) -> SemanticModel:
    return SemanticModel(parse(src), src, Target.preset("CL1.2"))


def _reference(model: SemanticModel) -> list[tuple[int, str | None]]:
    out = []
    for d in model.index.definitions:
        n = name_node(d)
        out.append((d.start_byte, None if n is None else model.source[n.start_byte:n.end_byte].decode()))
    return out


def _got(model: SemanticModel) -> list[tuple[int, str | None]]:
    return [(d.start_byte, name) for d, name in model.definition_names()]


def test_names_match_name_node() -> None:
    m = _model(SOURCE)
    assert _got(m) == _reference(m)
    assert [n for _, n in _got(m)] == ["plain", "ptr_ret", "paren", "macro_word", "k"]
    assert m.definition_names() is m.definition_names()  # read once per model


def test_names_of_macro_declarator() -> None:
    src = b"#define OVL __attribute__((overloadable))\nint OVL f(int x) { return x; }\nfloat OVL f(float x) { return x; }\n"
    m = _model(src)
    assert [n for _, n in _got(m)] == ["f", "f"] and _got(m) == _reference(m)


def test_names_of_broken_head() -> None:
    src = b"float (*)(int) { return 0; }\nint ok(void) { return 1; }\n"
    m = _model(src)
    assert _got(m) == _reference(m)
    assert _got(m)[-1][1] == "ok"


def test_names_of_pointer_return() -> None:
    src = b"__global float * __global * pp(__global float * __global *p) { return p; }\n"
    m = _model(src)
    assert [n for _, n in _got(m)] == ["pp"] == [n for _, n in _reference(m)]


OVERLOADS = b"""__attribute__((overloadable)) void put(__global float *p, float v) { p[0] = v; }
__attribute__((overloadable)) void put(__local float *p, float v) { p[0] = v; }
void take(__global float *p) { p[0] = 1.0f; }
kernel void k(__global float *g, __local float *l) {
    put(g, 1.0f);
    put(l, 2.0f);
    take(l);
}
"""


def test_overload_set_reported_as_before() -> None:
    host = Host(LintOptions(select=("CL1",)))
    host.set_file("k.cl", OVERLOADS)
    got = [(d.code, OVERLOADS[d.span.start:d.span.end].decode()) for d in host.snapshot().diagnostics("k.cl")]
    assert got == [("CL101", "l")]  # `take(l)` only: each `put` fits one of the set


@pytest.fixture
def counted(monkeypatch) -> list[int]:  # noqa: ANN001
    import cllint.analysis.addrspace.expressions as ex
    import cllint.analysis.model.symbols as sy
    import cllint.analysis.semantic.build_overloads as bo

    calls: list[int] = []

    def counting(d):  # noqa: ANN001, ANN202
        calls.append(d.start_byte)
        return name_node(d)

    for mod in (ex, sy, bo):
        monkeypatch.setattr(mod, "name_node", counting, raising=False)
    return calls


def test_names_read_once_per_lint(counted: list[int]) -> None:
    n = 20
    src = b"".join(b"float h%d(__global float *p) { return p[%d]; }\n" % (i, i) for i in range(n)) + \
        b"kernel void k(__global float *o) { o[0] = h0(o) + h1(o); }\n"
    host = Host(LintOptions(select=("CL0", "CL1")))
    host.set_file("k.cl", src)
    host.snapshot().diagnostics("k.cl")
    assert len(counted) <= n + 1 + 2, len(counted)  # each definition's once (and a rule's own few)
