"""CL101's last words name what changed space, "pointer" or "nested pointer", from the
conversions' mismatch (plain string constants since issue 32, session 19: an `Enum` made at
every start-up for two words). Cases written before the change; the last (held out) was run
once it was done."""

from __future__ import annotations

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source


def _cl101(src: str) -> list[str]:
    return [d.message for d in lint_source("k.cl", src.encode(), LintOptions()) if d.code == "CL101"]


def test_an_initialization_across_spaces_names_the_pointer() -> None:
    got = _cl101("__kernel void k(__global int *g) { __local int *l = g; }\n")
    assert len(got) == 1 and got[0].endswith("changes address space of pointer"), got


def test_an_assignment_across_spaces_names_the_pointer() -> None:
    got = _cl101("__kernel void k(__global int *g, __local int *l) { l = g; }\n")
    assert len(got) == 1 and got[0].startswith("assigning") and got[0].endswith("changes address space of pointer"), got


def test_the_outer_pointee_space_is_the_pointer_even_when_nested() -> None:
    # held out (its first label, "nested pointer", was wrong: clang-19 says "pointer" here too)
    got = _cl101("__kernel void k(__global int *__global *gg) { __global int *__local *p = gg; }\n")
    assert len(got) == 1 and got[0].endswith("changes address space of pointer"), got


def test_a_nested_pointer_is_named_so() -> None:
    # written after the held-out case's mistake, from clang-19's message on the same code
    got = _cl101("__kernel void k(__global int *__global *gg) { __local int *__global *p = gg; }\n")
    assert len(got) == 1 and got[0].endswith("changes address space of nested pointer"), got
