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
    (d,) = lint(DEAD_ARM)  # unknown: either arm may be compiled, the divergent one counts
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
    assert lint(src, target=Target.preset("CL3.0")) == []
    assert [d.code for d in lint(src, target=Target.preset("CL1.2"))] == ["CL202"]


def test_dead_helper_definition_does_not_count() -> None:
    src = b"""#define QUIET
#ifndef QUIET
void step(local float *t) { barrier(CLK_LOCAL_MEM_FENCE); }
#else
void step(local float *t) { t[0] = 0.0f; }
#endif
kernel void k(local float *t) { if (get_local_id(0) < 4) step(t); }
"""
    assert lint(src) == []
    (d,) = lint(src.replace(b"#define QUIET\n", b""))
    assert d.code == "CL203"


def test_struct_fields_are_tracked_one_by_one() -> None:
    src = b"""typedef struct { int lid; int n; struct { int lo, hi; } r; } ctx_t;
kernel void k(local float *t, int n) {
  ctx_t c = { .n = n, .lid = get_local_id(0) };
  c.r.lo = 0;
  c.r.hi = get_group_id(0);
  for (int i = c.r.lo; i < c.r.hi + c.n; ++i) barrier(CLK_LOCAL_MEM_FENCE);
  ctx_t d = c;
  if (d.n > 2) barrier(CLK_LOCAL_MEM_FENCE);
  if (d.lid > 2) barrier(CLK_LOCAL_MEM_FENCE);
  c = d;
  c.r = d.r;
  if (c.r.hi) barrier(CLK_LOCAL_MEM_FENCE);
}
"""
    (d,) = lint(src)
    assert src.count(b"\n", 0, d.span.start) == 8
    assert [n.message for n in d.notes][0] == "branch condition depends on 'd.lid' here"


def test_a_whole_struct_read_sees_every_field() -> None:
    src = b"""typedef struct { int lid; int n; } ctx_t;
int pick(ctx_t c) { return c.n; }
kernel void k(local float *t, int n) {
  ctx_t c;
  c.lid = get_local_id(0);
  c.n = n;
  if (pick(c) > 0) barrier(CLK_LOCAL_MEM_FENCE);
  if (c.lid > 0) c.n = 0;
  if (c.n) barrier(CLK_LOCAL_MEM_FENCE);
}
"""
    # pick(c) takes the whole struct (summaries are not field by field): reported, as is
    # c.n after a divergent assignment
    assert [src.count(b"\n", 0, d.span.start) for d in lint(src)] == [6, 8]


def test_macros_standing_for_work_item_ids() -> None:
    src = b"""#define LID get_local_id(0)
#define GID(d) get_global_id(d)
#define IN_RANGE(m) (GID(0) < (m))
#define GRP get_group_id(0)
kernel void k(local float *t, int n) {
  if (LID < n) barrier(CLK_LOCAL_MEM_FENCE);
  if (IN_RANGE(n)) barrier(CLK_LOCAL_MEM_FENCE);
  if (GRP < n) barrier(CLK_LOCAL_MEM_FENCE);
  t[LID] = 0.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
}
"""
    got = lint(src)
    assert [src.count(b"\n", 0, d.span.start) + 1 for d in got] == [6, 7]
    assert got[0].notes[0].message == "branch condition depends on 'LID' here"
    assert span(src, got[0].notes[0]) == b"(LID < n)"


def test_id_macro_redefined_before_use_is_what_counts() -> None:
    src = b"""#define ROW get_local_id(0)
kernel void a(int n) { if (ROW < n) barrier(CLK_LOCAL_MEM_FENCE); }
#undef ROW
#define ROW get_group_id(0)
kernel void b(int n) { if (ROW < n) barrier(CLK_LOCAL_MEM_FENCE); }
"""
    assert [src.count(b"\n", 0, d.span.start) + 1 for d in lint(src)] == [2]


def test_calls_in_one_arm_of_short_circuit_operators() -> None:
    src = b"""float sync_get(local float *t) { barrier(CLK_LOCAL_MEM_FENCE); return t[0]; }
kernel void k(local float *t, int n) {
  int lid = get_local_id(0);
  float a = n > 0 ? sync_get(t) : 0.0f;
  float b = lid < n ? sync_get(t) : 0.0f;
  int c = n > 0 && lid || work_group_any(lid);
}
"""
    got = [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint(src)]
    assert got == [("CL203", 5), ("CL202", 6)]
    (_, note, _) = lint(src)[0].notes
    assert note.message == "condition depends on 'lid' here" and span(src, note) == b"lid < n"
