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


DEAD_ARM = b"""kernel void k(global float *a, local float *t, int n) {
  int lid = get_local_id(0);
#ifdef UNIFORM_PATH
  barrier(CLK_LOCAL_MEM_FENCE);
#else
  if (lid < n) barrier(CLK_LOCAL_MEM_FENCE);
#endif
}
"""


def test_dead_arm_of_a_macro_defined_above() -> None:
    assert lint(b"#define UNIFORM_PATH\n" + DEAD_ARM) == []
    assert lint(b"#define UNIFORM_PATH\n#undef UNIFORM_PATH\n" + DEAD_ARM)[0].code == "CL201"


def test_dead_arm_by_command_line_define() -> None:
    assert lint(DEAD_ARM, defines=(("UNIFORM_PATH", "1"),)) == []
    # nothing says whether the host passes -DUNIFORM_PATH: the arm is the host's choice
    assert lint(DEAD_ARM) == []
    # with the options known, an undefined macro is 0 and the divergent arm is compiled
    (d,) = lint(DEAD_ARM, options_known=True)
    assert d.code == "CL201"


def test_dead_arm_by_target_version() -> None:
    from cllint.analysis.target import Target

    src = b"""kernel void k(global float *a, local float *t) {
  float x = a[get_global_id(0)];
#if __OPENCL_C_VERSION__ >= 200
  x = work_group_reduce_add(x);
#else
  if (get_local_id(0) == 0) x = work_group_reduce_add(x);
#endif
  a[get_global_id(0)] = x;
}
"""
    assert lint(src, target=Target.preset("CL3.0"), mode="target") == []
    assert [d.code for d in lint(src, target=Target.preset("CL1.2"), mode="target")] == ["CL202"]


PORTABLE = b"""kernel void k(global float *a, local float *t) {
  float x = a[get_global_id(0)];
#if __OPENCL_C_VERSION__ >= 200
  if (get_local_id(0) == 0) x = work_group_reduce_add(x);
#else
  barrier(CLK_LOCAL_MEM_FENCE);
#endif
  a[get_global_id(0)] = x;
}
"""


def test_portability_mode_leaves_version_arms_undecided() -> None:
    # No target named: the default CL1.2 stand-in must not drop the 2.0 arm.
    (d,) = lint(PORTABLE)
    assert d.code == "CL202" and PORTABLE.count(b"\n", 0, d.span.start) == 3
    assert lint(PORTABLE, mode="target") == []  # a CL1.2 target does drop it


def test_portability_mode_feature_arms_decided_only_by_the_file_or_command_line() -> None:
    feature = b"__opencl_c_work_group_collective_functions"
    src = b"""kernel void k(global float *a, local float *t) {
  float x = a[get_global_id(0)];
#if defined(F)
  x = work_group_reduce_add(x);
#else
  if (get_local_id(0) == 0) barrier(CLK_LOCAL_MEM_FENCE);
#endif
}
""".replace(b"F", feature)
    assert [d.code for d in lint(src)] == ["CL201"]  # CL1.2 stand-in lacks it: still undecided
    assert lint(src, defines=((feature.decode(), "1"),)) == []
    assert lint(b"#define " + feature + b" 1\n" + src) == []
