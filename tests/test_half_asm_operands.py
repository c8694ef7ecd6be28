"""CL309 (and CL301's fp16) on `half` lvalues that are inline-assembly output operands (issue 29,
SPIR-V translator's SPV_INTEL_inline_assembly tests): clang-19 accepts `"=r"(B[i])` with
`global half *B` and no cl_khr_fp16 pragma, since the asm writes the storage and no C store is
made; an input operand `"r"(B[i])` is a load and stays reported.

Cases labelled with clang-19 -cl-std=CL2.0 before the change; HELDOUT scored after."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

HEAD = b"kernel void k(global half *B, global float *A) {\n  int i = get_global_id(0);\n"

TUNE = {
    "output_operand": (HEAD + b'  __asm__ volatile ("cmd %0 %1" : "=r"(B[i]) : "r"(A[i]));\n}\n', set()),
    "input_operand": (HEAD + b'  __asm__ volatile ("cmd %0 %1" : "=r"(A[i]) : "r"(B[i]));\n}\n', {3}),
}

HELDOUT = {
    "output_through_a_pointer": (HEAD + b'  __asm__ volatile ("cmd %0" : "=r"(*B));\n}\n', set()),
    "plain_store_after": (HEAD + b'  __asm__ volatile ("cmd %0" : "=r"(B[i]));\n  B[i + 1] = B[i];\n}\n', {4}),
}


def _cl309_lines(src: bytes) -> set[int]:
    diags = lint_tree("t.cl", src, parse(src), LintOptions(select=("CL309",), std="CL2.0"))
    return {src.count(b"\n", 0, d.span.start) + 1 for d in diags if d.code == "CL309"}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, lines = TUNE[name]
    assert _cl309_lines(src) == lines


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, lines = HELDOUT[name]
    assert _cl309_lines(src) == lines
