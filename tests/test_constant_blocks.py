"""CL109 and block literals (issue 29): a `__constant` block variable initialized with a block
literal (`constant block_t b = ^(int i) { return i + 1; };`, SPIR-V translator's tests) is a
compile-time constant for clang-19; the literal's parameters and locals are its own, not
variables the initializer reads. A variable read outside a literal stays reported.

Cases written before the change (clang-19 -cl-std=CL2.0 decides each); HELDOUT scored after."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

TUNE = {
    "parameter_of_the_literal": (b"kernel void k(global int *res) {\n  typedef int (^block_t)(int);\n"
                                 b"  constant block_t b1 = ^(int i) { return i + 1; };\n  *res = b1(5);\n}\n", set()),
    "local_of_the_literal": (b"kernel void k(global int *res) {\n  typedef int (^block_t)(int);\n"
                             b"  constant block_t b2 = ^(int i) { int t = i * 2; return t; };\n"
                             b"  *res = b2(1);\n}\n", set()),
    "variable_outside_stays": (b"kernel void k(global int *res) {\n  int n = res[0];\n"
                               b"  constant int c = n;\n  *res = c;\n}\n", {3}),
}

HELDOUT = {
    "void_literal": (b"kernel void k(global int *res) {\n  typedef void (^work_t)(global int *);\n"
                     b"  constant work_t w = ^(global int *p) { int v = 3; *p = v; };\n  w(res);\n}\n", set()),
    "literal_and_variable": (b"kernel void k(global int *res) {\n  int n = res[1];\n"
                             b"  typedef int (^block_t)(int);\n  constant block_t b = ^(int i) { return i; };\n"
                             b"  constant int c = n + 1;\n  *res = b(c);\n}\n", {5}),
}


def _cl109_lines(src: bytes) -> set[int]:
    diags = lint_tree("t.cl", src, parse(src), LintOptions(select=("CL109",), std="CL2.0"))
    return {src.count(b"\n", 0, d.span.start) + 1 for d in diags if d.code == "CL109"}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, lines = TUNE[name]
    assert _cl109_lines(src) == lines


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, lines = HELDOUT[name]
    assert _cl109_lines(src) == lines
