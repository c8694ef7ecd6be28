"""CL010 (use of undeclared identifier) and GPUVerify's `DECLARE_UF_BINARY(NAME, ...)` /
`DECLARE_UF_UNARY(NAME, ...)` lines: the names they declare are read from the file once per
lint and kept on the file's facts, not searched for in the whole source at every unknown
name (issue 32: opencv's conv_layer_spatial.cl asked 159 times, 4 ms). Each case repeats
names across bodies, so an answer kept from one must hold in the next. Undeclared names
are clang-19's errors (-cl-std=CL3.0); the declared ones are cllint's documented reading
of GPUVerify's annotations. The last two (held out) were written with the rest before the
code and run once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source

TUNE = {
    # a name one line declares, called in two kernels: never reported
    "declared_then_called_twice": (b"""DECLARE_UF_BINARY(A, unsigned, unsigned, unsigned);
__kernel void k(unsigned x, __global unsigned *out) { out[0] = A(x, 0); }
__kernel void j(unsigned x, __global unsigned *out) { out[1] = A(x, 1); }
""", []),
    # no such line: each body's use of the unknown name is reported
    "undeclared_in_two_kernels": (b"""__kernel void k(__global int *out) { out[0] = missing_a; }
__kernel void j(__global int *out) { out[1] = missing_a; }
""", [1, 2]),
    # one declared, one not: only the other is reported
    "one_of_two_declared": (b"""DECLARE_UF_UNARY(B, int, int);
__kernel void k(__global int *out) { out[0] = B(1) + other_name; }
""", [2]),
}

HELDOUT = {
    # declared by a line after the kernels: still the file's (read from the whole file)
    "declared_after_use": (b"""__kernel void k(__global int *out) { out[0] = C(2); }
__kernel void j(__global int *out) { out[1] = nope; }
DECLARE_UF_UNARY(C, int, int);
""", [2]),
    # an indented line in the middle, two names, both bodies
    "two_lines_two_names": (b"""  DECLARE_UF_BINARY(D, int, int, int);
__kernel void k(__global int *out) { out[0] = D(1, 2) + E(3); }
    DECLARE_UF_UNARY(E, int, int);
__kernel void j(__global int *out) { out[1] = E(D(1, 1)) + gone; }
""", [4]),
}


def _lines(source: bytes) -> list[int]:
    diags = lint_source("uf.cl", source, LintOptions(select=("CL010",)))
    return sorted(source.count(b"\n", 0, d.span.start) + 1 for d in diags if d.code == "CL010")


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    source, lines = TUNE[name]
    assert _lines(source) == lines


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    source, lines = HELDOUT[name]
    assert _lines(source) == lines
