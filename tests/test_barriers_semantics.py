"""CL2xx on rules of C and OpenCL semantics the labelled kernels exercise (issue 18):
the comma operator, dead preprocessor arms, struct fields, id macros, and calls in one
arm of `?:`, `&&` and `||`. Exact ranges and note wording are checked here."""

from __future__ import annotations

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse


def lint(src: bytes, **options) -> list:
    return lint_tree("s.cl", src, parse(src), LintOptions(select=("CL2",), **options))


def span(src: bytes, d) -> bytes:
    return src[d.span.start:d.span.end]


def test_comma_only_the_last_operand_decides() -> None:
    src = b"""kernel void k(local float *t, int n) {
  int lid = get_local_id(0), v;
  for (int s = 0; v = lid, s < n; ++s) barrier(CLK_LOCAL_MEM_FENCE);
  while ((void)n, v > 0) { barrier(CLK_LOCAL_MEM_FENCE); v--; }
}
"""
    (d,) = lint(src)
    assert d.code == "CL201" and src.count(b"\n", 0, d.span.start) == 3
    note = d.notes[0]
    assert span(src, note) == b"v > 0"  # the deciding operand, not the whole condition
    assert note.message == "loop condition depends on 'v', so the trip count may differ between work-items"


def test_comma_operands_before_the_last_still_assign() -> None:
    src = b"""kernel void k(local float *t) {
  int v = 0;
  if (v = get_local_id(0), 1) { }
  if (v < 4) barrier(CLK_LOCAL_MEM_FENCE);
}
"""
    assert [d.code for d in lint(src)] == ["CL201"]
