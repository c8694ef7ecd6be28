"""Held-out cases for the line-start macro call prefilter of CL001 (issue 32, session 15),
written with tests/test_expansion_prefilter.py and run only once the code was done. Labels:
clang-19 `-cl-std=CL3.0 -fsyntax-only` errors of each case."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.target import Target
from cllint.grammar import parse

# A call after a comment on its line: still the macro's item (clang: only 3:61).
AFTER_COMMENT = b"""#define TWICE(T) T twice_##T(T x) { return x + x; }
/* a helper */ TWICE(float)
kernel void k(global float *o) { o[0] = twice_float(1.0f) * ; }
"""
# The macro is defined in an arm never compiled: the call is an error (clang: 5:1).
DEAD_DEFINITION = b"""#if 0
#define TWICE(T) T twice_##T(T x) { return x + x; }
#endif
TWICE(float)
kernel void k(global float *o) { o[0] = 1.0f; }
"""
# The name only in a comment and in its own head (clang: 3:47).
NAMED_IN_COMMENT = b"""// TWICE(float) is how it used to be written
#define TWICE(T) T twice_##T(T x) { return x + x; }
kernel void k(global float *o) { o[0] = 1.0f +; }
"""


def syntax_lines(source: bytes) -> list[int]:
    opts = LintOptions(select=("CL001",), target=Target.preset("CL3.0"))
    found = lint_tree("k.cl", source, parse(source), opts)
    return sorted({source.count(b"\n", 0, d.span.start) + 1 for d in found if d.code == "CL001"})


@pytest.mark.parametrize(("source", "lines"), [(AFTER_COMMENT, [3]), (NAMED_IN_COMMENT, [3])])
def test_reported_where_clang_reports(source: bytes, lines: list[int]) -> None:
    assert syntax_lines(source) == lines


@pytest.mark.xfail(strict=True, reason="missed before the prefilter too (session 15's start tree says nothing): "
                   "an unknown call heading a definition is read as a macro-headed kernel")
def test_dead_definition_leaves_the_call_an_error() -> None:
    found = syntax_lines(DEAD_DEFINITION)
    assert found and set(found) <= {4, 5}
