"""A function head written twice, one per `#if` arm (`#ifdef USE_IMAGE` / `#else` around the
parameter lists, one body): the grammar reads the first arm as the head and the other as
skipped text, but the body may use the parameters of any arm (issue 29: the default build
often takes the `#else` list). Names from another arm's list are declared, with an unknown
type; a name no arm declares is still reported. Cases written before the code; the last
third (`HELD`) was not looked at while writing it."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.rules.semantic import RULES
from cllint.grammar import parse

CODES = tuple(r.code for r in RULES)


def codes(source: str) -> list[tuple[int, str]]:
    data = source.encode()
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES))
    return sorted((data.count(b"\n", 0, d.span.start) + 1, d.code) for d in diags)


TUNE = {
    "else-arm": ("#ifdef USE_IMAGE\n__kernel void g(int m, image2d_t gx, __global float *out) {\n#else\n"
                 "__kernel void g(int m, __global float *gx, __global float *out, int width, int height) {\n#endif\n"
                 "    int gid = get_global_id(0);\n    if (gid >= width * height) return;\n    out[gid] = m;\n}\n", []),
    "elif-arms": ("#if MODE == 1\nkernel void f(global float *a, int n) {\n#elif MODE == 2\n"
                  "kernel void f(global float *a, int n, float scale) {\n#else\n"
                  "kernel void f(global float *a, int n, float scale, float bias) {\n#endif\n"
                  "    int i = get_global_id(0);\n    if (i < n) a[i] = a[i] * scale + bias;\n}\n", []),
    "undeclared-still-reported": ("#ifdef A\nkernel void f(global float *a) {\n#else\n"
                                  "kernel void f(global float *a, int n) {\n#endif\n    a[0] = n + missing;\n}\n",
                                  [(6, "CL010")]),
}
HELD = {
    "ifndef-helper": ("#ifndef FAST\nfloat blend(float x, float y, float t) {\n#else\n"
                      "float blend(float x, float y, float t, float gamma) {\n#endif\n"
                      "    return mix(x, y, t) * gamma;\n}\n", []),
    "no-skipped-head": ("kernel void f(global float *a) {\n#ifdef A\n    int n = 1;\n#else\n    int n = 2;\n#endif\n"
                        "    a[0] = n + width;\n}\n", [(7, "CL010")]),
}


@pytest.mark.parametrize("name", [*TUNE, *HELD])
def test_parameters_of_another_arm_are_declared(name: str) -> None:
    source, expected = {**TUNE, **HELD}[name]
    assert codes(source) == expected
