"""CL2xx on the labelled barrier-divergence set (tests/rules/fixtures/barriers/).

Each fixture starts with `// expect: CL201 line N` lines (or `// expect: none`) and an
optional `// sim:` line used by test_barriers_oclgrind.py. Run this file directly for
the kernel-level figures:

    .venv/bin/python tests/test_barriers.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.uniformity.per_cause import ALSO
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "barriers"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted(FIXTURES.glob("*.cl"))


def expected(src: str) -> set[tuple[str, int]]:
    return {(code, int(line)) for code, line in EXPECT.findall(src)}


# Races between work-groups (issue 31): these labels are Oclgrind's verdicts on divergence and
# on races inside a work-group; cross-group races are scored on their own labelled set
# (tests/test_races_round2.py). Several kernels here do race across groups when launched with
# more than one (a reduction writing `a[group]` while others read `a[gid]`).
ACROSS_GROUPS = "no barrier can order two work-groups"


def reported(path: Path) -> tuple[set[tuple[str, int]], list]:
    source = path.read_bytes()
    # The labels are Oclgrind's on the build each case's `sim:` line describes (no `-D`): the
    # options are known, so an `#if` on an undefined macro is decided as the compiler does.
    diags = lint_tree(str(path), source, parse(source), LintOptions(select=("CL2",), options_known=True))
    diags = [d for d in diags if not d.message.endswith(ACROSS_GROUPS)]
    lines = {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}
    # A call unreached for the same reason as an earlier one is that report's note (one report
    # per cause, analysis/uniformity/per_cause.py): still a finding at its own line.
    lines |= {(d.code, source.count(b"\n", 0, n.span.start) + 1)
              for d in diags for n in d.notes if n.message.startswith(ALSO)}
    return lines, diags


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    got, diags = reported(path)
    assert got == expected(path.read_text()), [(d.code, d.message, d.notes) for d in diags]


def figures() -> dict[str, float]:
    tp = fp = fn = tn = 0
    for path in CASES:
        pos = bool(expected(path.read_text()))
        hit = bool(reported(path)[0])
        tp += pos and hit
        fn += pos and not hit
        fp += hit and not pos
        tn += not pos and not hit
    return {
        "positives": tp + fn, "negatives": fp + tn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "recall": tp / max(tp + fn, 1), "false_positive_rate": fp / max(fp + tn, 1),
        "precision": tp / max(tp + fp, 1),
    }


def test_labelled_set_figures() -> None:
    f = figures()
    assert f["positives"] >= 20 and f["negatives"] >= 20
    assert f["recall"] >= 0.95
    assert f["false_positive_rate"] < 0.03


def test_notes_explain_the_chain() -> None:
    _, diags = reported(FIXTURES / "pos_early_return.cl")
    (d,) = diags
    assert d.message == "'barrier' may not be reached by every work-item in the work-group"
    messages = [n.message for n in d.notes]
    assert "branch condition depends on 'gid' here" in messages
    assert "work-items that take this 'return' skip the call" in messages
    assert "'gid' comes from 'get_global_id(0)' here" in messages


def test_suppression_comment() -> None:
    src = b"""kernel void k(global float *a) {
  if (get_local_id(0) < 4)
    barrier(CLK_LOCAL_MEM_FENCE); // cllint: ignore[CL201]
}
"""
    assert lint_tree("s.cl", src, parse(src), LintOptions(select=("CL2",))) == []


# -- macros standing for barriers and collectives (analysis/uniformity/macros.py) --------


def lint_cl2(src: bytes, resolver=None) -> list:
    return lint_tree("m.cl", src, parse(src), LintOptions(select=("CL2",)), include_resolver=resolver)


def test_macro_barrier_is_reported_on_the_macro_use() -> None:
    src = b"""#define SYNC_THREADS() barrier (CLK_LOCAL_MEM_FENCE)
kernel void k(local float *t) {
  if (get_local_id(0) < 4)
    SYNC_THREADS ();
}
"""
    (d,) = lint_cl2(src)
    assert d.code == "CL201"
    assert src[d.span.start:d.span.end] == b"SYNC_THREADS"
    assert d.message == ("'SYNC_THREADS' expands to 'barrier', which may not be reached by every "
                         "work-item in the work-group")
    assert "branch condition depends on 'get_local_id(0)' here" in [n.message for n in d.notes]


def test_helper_reaching_a_barrier_through_a_macro() -> None:
    src = b"""#define LOCAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)
void tile(local float *t) { t[0] = 1.0f; LOCAL_BARRIER; }
kernel void k(local float *t) {
  if (get_local_id(0) < 4) tile(t);
}
"""
    (d,) = lint_cl2(src)
    assert d.code == "CL203"
    inner = d.notes[0]
    assert inner.message == "'tile' reaches 'barrier' here (expanded from macro 'LOCAL_BARRIER')"
    assert src[inner.span.start:inner.span.end] == b"LOCAL_BARRIER"


def test_early_return_before_a_macro_barrier() -> None:
    src = b"""#define SYNC_THREADS() barrier (CLK_LOCAL_MEM_FENCE)
kernel void k(global float *a, local float *t, int n) {
  int gid = get_global_id(0);
  if (gid >= n) return;
  t[get_local_id(0)] = a[gid];
  SYNC_THREADS ();
}
"""
    (d,) = lint_cl2(src)
    assert d.code == "CL201" and "work-items that take this 'return' skip the call" in [n.message for n in d.notes]


def test_collective_and_sub_group_macros() -> None:
    src = b"""#define WG_SUM(x) work_group_reduce_add(x)
#define SG_SUM(x) sub_group_reduce_add(x)
kernel void k(global float *a) {
  int lid = get_local_id(0);
  if (lid < 4) a[0] = WG_SUM(a[lid]);
  if (get_sub_group_local_id() == 0) a[1] = SG_SUM(a[lid]);
}
"""
    got = [(d.code, d.message.split(",")[0]) for d in lint_cl2(src)]
    assert got == [("CL202", "'WG_SUM' expands to 'work_group_reduce_add'"),
                   ("CL205", "'SG_SUM' expands to 'sub_group_reduce_add'")]


def test_uniform_macro_barriers_stay_silent() -> None:
    src = b"""#define SYNC_THREADS() barrier (CLK_LOCAL_MEM_FENCE)
#define LOCAL_BARRIER barrier(CLK_LOCAL_MEM_FENCE)
kernel void k(global float *a, local float *t, int n) {
  int lid = get_local_id(0);
  t[lid] = lid < n ? a[lid] : 0.0f;
  SYNC_THREADS ();
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (lid < s) t[lid] += t[lid + s];
    LOCAL_BARRIER;
  }
  if (get_group_id(0) > 2) SYNC_THREADS ();
}
"""
    assert lint_cl2(src) == []


@pytest.mark.parametrize("defines", [
    b"",  # undefined: the macro cannot be known
    b"#define SYNC_THREADS()\n#define LOCAL_BARRIER\n",  # named like barriers, expand to nothing
    b"#define SYNC_THREADS() mem_fence(CLK_LOCAL_MEM_FENCE)\n#define LOCAL_BARRIER ((void)0)\n",
    b"#define SYNC_THREADS() barrier(1)\n#define LOCAL_BARRIER barrier(1)\n"
    b"#undef SYNC_THREADS\n#undef LOCAL_BARRIER\n",  # gone before the kernel
    b"#if 0\n#define SYNC_THREADS() barrier(1)\n#define LOCAL_BARRIER barrier(1)\n#endif\n",
])
def test_macros_that_are_no_barrier_stay_silent(defines: bytes) -> None:
    src = defines + b"""kernel void k(local float *t) {
  if (get_local_id(0) < 4) { SYNC_THREADS (); LOCAL_BARRIER; }
}
"""
    assert lint_cl2(src) == []


def test_macro_defined_after_the_kernel_is_not_its_macro() -> None:
    src = b"""kernel void k(local float *t) {
  if (get_local_id(0) < 4) SYNC_THREADS ();
}
#define SYNC_THREADS() barrier (CLK_LOCAL_MEM_FENCE)
kernel void k2(local float *t) {
  if (get_local_id(0) < 4) SYNC_THREADS ();
}
"""
    assert [src.count(b"\n", 0, d.span.start) + 1 for d in lint_cl2(src)] == [6]


def test_a_macro_deciding_itself_whether_to_synchronise_stays_silent() -> None:
    """Conservative: a condition or jump before the barrier inside the expansion decides
    whether (and where) it runs, and that decision is not read (see macros._DECIDES)."""
    src = b"""#define SYNC_IF(c) if (c) barrier(CLK_LOCAL_MEM_FENCE)
#define SYNC_WIDE (get_local_size(0) > 32 ? barrier(CLK_LOCAL_MEM_FENCE) : (void)0)
#define REDUCE(t, lid) for (int s = 8; s > 0; s >>= 1) { t[lid] += t[lid + s]; barrier(CLK_LOCAL_MEM_FENCE); }
kernel void k(local float *t) {
  int lid = get_local_id(0);
  SYNC_IF(lid < 4);
  if (lid < 32) { SYNC_WIDE; }
  if (lid < 8) { REDUCE(t, lid) }
}
"""
    # the loop around the barrier does not decide: REDUCE is reported, the others not
    assert [(d.code, d.message.split(",")[0]) for d in lint_cl2(src)] == [("CL201", "'REDUCE' expands to 'barrier'")]


def test_arguments_through_a_macro_are_checked_only_for_an_alias() -> None:
    """`BARRIER(f)` with `#define BARRIER barrier` passes `f` to barrier itself; where a
    function-like macro's argument lands is not known, so it is not checked."""
    src = b"""#define BARRIER barrier
#define SYNC(f) barrier(f)
kernel void k(local float *t) {
  int lid = get_local_id(0);
  BARRIER(lid ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);
  SYNC(lid ? CLK_LOCAL_MEM_FENCE : CLK_GLOBAL_MEM_FENCE);
}
"""
    got = [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint_cl2(src)]
    assert got == [("CL204", 5)]


def test_macro_from_an_include() -> None:
    header = b"#define SYNC_THREADS() barrier (CLK_LOCAL_MEM_FENCE)\n"
    src = b"""#include "platform.h"
kernel void k(local float *t) {
  if (get_local_id(0) < 4) SYNC_THREADS ();
}
"""
    found = lint_cl2(src, lambda name, angled, including: ("platform.h", header) if name == "platform.h" else None)
    assert [d.code for d in found] == ["CL201"]
    assert lint_cl2(src) == []  # the header not found: unknown


def test_a_barrier_in_a_macro_argument_is_reported_once() -> None:
    src = b"""#define RUN(x) do { x; } while (0)
kernel void k(local float *t) {
  if (get_local_id(0) < 4) RUN(barrier(CLK_LOCAL_MEM_FENCE));
}
"""
    (d,) = lint_cl2(src)
    assert d.message.startswith("'barrier' may not")  # the call the tree holds, not the macro


@pytest.mark.parametrize("src", [
    b"#define S() S()\nkernel void k() { if (get_local_id(0)) S(); }",
    b"#define A B\n#define B A\nkernel void k() { if (get_local_id(0)) { A; B(); } }",
    b"#define F(x, y) barrier(x)\nkernel void k() { if (get_local_id(0)) { F(1); F(1, 2, 3); F; } }",
    b"#define F(x) barrier(x)\nkernel void k() { if (get_local_id(0)) F(",
    b"#define barrier(x) barrier(x)\nkernel void k() { if (get_local_id(0)) barrier(1); }",
    b"#define S() barrier(1)\nkernel void k() { ;; if (get_local_id(0)) { S() /* c */; S /* c */; } }",
])
def test_odd_macros_never_raise(src: bytes) -> None:
    lint_cl2(src)


@pytest.mark.parametrize("src", [
    b"kernel void k( { barrier(",
    b"kernel void k() { for (;;) { barrier(1); } }",
    b"kernel void k() { lbl: if (get_local_id(0)) goto lbl; barrier(1); goto nowhere; }",
    b"void f(void); kernel void k() { switch (get_local_id(0)) { } f(); }",
    b"void f() { f(); barrier(1); } kernel void k() { if (get_local_id(0)) f(); }",
])
def test_never_raises(src: bytes) -> None:
    lint_tree("x.cl", src, parse(src), LintOptions(select=("CL2",)))


if __name__ == "__main__":
    for key, value in figures().items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")
    sys.exit(0)
