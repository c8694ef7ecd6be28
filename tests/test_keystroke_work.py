"""A keystroke re-analyses the function it touched, not the file (issue 32): counted in function
models built, not timed. 99d5b1f (session 12) built every definition's model on each call to a
user function while looking for overload sets, and a keystroke on darktable's basic.cl went from
13 to 52 ms CPU p50 (150 ms p95) unnoticed; this test would have failed."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.model import symbols

N = 40
HELPERS = "".join(f"float helper{i}(__global float *p, int j) {{ return p[j] * {i}.0f + p[j + 1]; }}\n"
                  for i in range(N))
KERNEL = ("__kernel void k(__global float *p, __global float *o) {\n    int i = get_global_id(0);\n"
          "    o[i] = helper0(p, i) + helper1(p, i);\n}\n")


def test_a_keystroke_builds_models_for_the_function_it_touched(monkeypatch) -> None:
    text = (HELPERS + KERNEL).encode()
    host = Host()
    host.set_file("k.cl", text)
    host.snapshot().diagnostics("k.cl")
    built = []
    real = symbols.FunctionModel.__init__

    def counting(self, model, node) -> None:  # noqa: ANN001
        built.append(node.start_byte)
        real(self, model, node)

    monkeypatch.setattr(symbols.FunctionModel, "__init__", counting)
    at = text.index(b"helper1(p, i)")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"2.0f * ")]}))
    assert host.snapshot().diagnostics("k.cl") == []
    # the kernel's model, per analysis family that builds one; never one per helper
    assert 0 < len(set(built)) <= 3, sorted(set(built))
