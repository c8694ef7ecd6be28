"""CL21x on the round-18 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for two shapes round 17 left open (tests/rules/fixtures/races/round18/):
an access under an ordinary guard that reads only the kernel's scalar arguments (`if (it & 1)
A[g + 1] = g;`, `if (mode == 2)`, `if (!flag)`, a `return` or `switch` on one: every work-item
takes it or none does, so a race under it exists whenever it can hold), and a struct whose
pointer a helper sets to an offset of its argument (`s->p = buf + o`, `r.p = b + o`, `&buf[o]`).
Racy and race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest before
the code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round18.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round18"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 9


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


def test_heldout_targets() -> None:
    # scored once, after the code: 6/6 races, 0/3 false alarms (0/6, 0/3 before); the helpers'
    # batch (guards in a helper) added after, its one held-out case scored once after its code: 1/1
    f = figures(HELDOUT)
    assert f["positives"] >= 7 and f["negatives"] >= 3
    assert f["fp"] == 0 and f["tp"] >= 7, f


@pytest.mark.parametrize("body, racy", [
    # a guard on an argument's arithmetic: taken by all or none; a race under it whenever it can hold
    (b"if (it & 1) A[g + 1] = g;\n  A[g] = -1;", True),
    (b"if (it % 4 == 3) A[g + 1] = g;\n  A[g] = -1;", True),
    (b"if (n == 2) A[0] = g;", True),
    (b"if (n < 0) A[0] = g;", True),
    (b"if (!n) A[g + 1] = g;\n  A[g] = -1;", True),
    (b"A[g] = -1;\n  if ((it & 1) == 0) return;\n  A[g + 1] = g;", True),
    # the two arms of one guard: never both
    (b"if (it & 1) A[g + 1] = g; else A[g] = -1;", False),
    (b"if (it & 1) { A[g + 1] = g; return; }\n  A[g] = -1;", False),
    # two conditions on one argument, or on two related ones: sampled together, as before (silent)
    (b"if (it & 1) A[g + 1] = g;\n  if (!(it & 1)) A[g] = -1;", False),
    (b"if (it > n) A[g + 1] = g;\n  if (n > it) A[g] = -1;", False),
    # an argument the access's place reads: its sample would not satisfy the reading (silent: a known miss)
    (b"if (n == 1) A[g * n + 1] = g;\n  A[g] = -1;", False),
    # a guard on an argument and the work-item: the argument's conjunct read each way
    (b"if ((it & 1) && get_local_id(0) == 0) A[0] = g;\n  A[1] = A[0];", True),
    (b"if ((it & 1) && g == 0) A[0] = it;\n  A[g + 1] = -1;", False),
    # a switch on an argument: each label, and none of them
    (b"switch (it) { case 3: A[g + 1] = g; break; default: break; }\n  A[g] = -1;", True),
    (b"switch (it) { case 3: A[g + 1] = g; break; default: A[g] = -1; break; }", False),
])
def test_a_guard_on_arguments(body: bytes, racy: bool) -> None:
    src = b"kernel void k(global int *A, int it, int n) {\n  int g = get_global_id(0);\n  " + body + b"\n}\n"
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("body", [
    # a condition that also asks for the work-item is no argument's alone: evaluated, one work-item
    b"if (n == get_global_id(0)) A[0] = g;",
    b"if (GID == n) A[0] = g;",  # the work-item through a macro
])
def test_a_guard_naming_the_work_item_is_not_read_each_way(body: bytes) -> None:
    src = (b"#define GID get_global_id(0)\nkernel void k(global int *A, int n) {\n  int g = get_global_id(0);\n  "
           + body + b"\n}\n")
    assert lint(src) == []


@pytest.mark.parametrize("helpers, call, racy", [
    # a helper's guard on a parameter the kernel passes its argument: read each way, in the kernel's terms
    (b"void put(global int *A, int g, int it) { if (it & 1) A[g + 1] = g; }", b"put(A, g, it);\n  A[g] = -1;", True),
    (b"void put(global int *A, int g, int it) { if (it & 1) A[g + 1] = g; else A[g] = -1; }", b"put(A, g, it);",
     False),
    (b"void put(global int *A, int g, int m) { switch (m) { case 5: A[g + 1] = g; break; } }",
     b"put(A, g, it);\n  A[g] = -1;", True),
    # through two helpers
    (b"void put(global int *A, int g, int c) { if (c > 2) A[g + 1] = g; }\n"
     b"void mid(global int *A, int g, int it) { put(A, g, it); }", b"mid(A, g, it);\n  A[g] = -1;", True),
    # the kernel's guard and the helper's, two conditions on one argument: sampled together (never both)
    (b"void put(global int *A, int g, int it) { if (it & 1) A[g + 1] = g; }",
     b"if (!(it & 1)) put(A, g, it);\n  A[g] = -1;", False),
    # a constant argument is evaluated (never taken), a work-item's value is no argument's (one work-item)
    (b"void put(global int *A, int g, int it) { if (it & 1) A[g + 1] = g; }", b"put(A, g, 2);\n  A[g] = -1;", False),
    (b"void put(global int *A, int g, int it) { if (it == 7) A[0] = g; }", b"put(A, g, g);", False),
])
def test_a_guard_in_a_helper(helpers: bytes, call: bytes, racy: bool) -> None:
    src = helpers + b"\nkernel void k(global int *A, int it) {\n  int g = get_global_id(0);\n  " + call + b"\n}\n"
    got = lint(src)
    assert bool(got) == racy, got


REF = b"typedef struct { global int *p; int n; } ref_t;\n"


@pytest.mark.parametrize("helper, fill, racy", [
    # a filler's offset pointer, read in the caller's terms
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o; s->n = o; }", b"init(&s, A, 1);", True),
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o; s->n = o; }", b"init(&s, A, 0);", False),
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o; s->n = o; }", b"init(&s, B, 1);", False),
    (b"void init(ref_t *s, global int *b, int o) { s->p = o + b; }", b"init(&s, A, 3);", True),
    (b"void init(ref_t *s, global int *b) { s->p = b - 1; }", b"init(&s, A + 2);", True),
    (b"void init(ref_t *s, global int *b) { s->p = b - 1; }", b"init(&s, A + 1);", False),
    (b"void init(ref_t *s, global int *b, int o) { s->p = &b[o]; }", b"init(&s, A, 2);", True),
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o + 1; }", b"init(&s, A, -1);", False),
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o + 1; }", b"init(&s, A, 1);", True),
    # an offset the caller cannot read (`o * 2`), or a parameter the filler assigns: not read (silent)
    (b"void init(ref_t *s, global int *b, int o) { s->p = b + o * 2; }", b"init(&s, A, 1);", False),
])
def test_a_filler_storing_an_offset(helper: bytes, fill: bytes, racy: bool) -> None:
    src = (REF + helper + b"\nkernel void k(global int *A, global int *B) {\n  int g = get_global_id(0);\n  ref_t s;\n  "
           + fill + b"\n  s.p[g] = g;\n  A[g] = -1;\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("maker, call, racy", [
    (b"ref_t make(global int *b, int o) { ref_t r; r.p = b + o; r.n = o; return r; }", b"make(A, 1)", True),
    (b"ref_t make(global int *b, int o) { ref_t r = { b + o, o }; return r; }", b"make(A, 1)", True),
    (b"ref_t make(global int *b, int o) { ref_t r = { b + o, o }; return r; }", b"make(A, get_global_size(0))", False),
])
def test_a_maker_returning_an_offset(maker: bytes, call: bytes, racy: bool) -> None:
    src = (REF + maker + b"\nkernel void k(global int *A, global int *B) {\n  int g = get_global_id(0);\n  ref_t s = "
           + call + b";\n  s.p[g] = g;\n  A[g] = -1;\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


def test_a_filler_called_in_a_helper_leaves_the_offset_unread() -> None:
    # a helper's own definitions carry no offsets: `s.p` there (A[g], race-free) is not read as `b` unmoved
    src = (REF + b"void init(ref_t *s, global int *b, int o) { s->p = b + o; }\n"
           b"void run(global int *A, int g) { ref_t s; init(&s, A, -1); s.p[g + 1] = g; }\n"
           b"kernel void k(global int *A) {\n  int g = get_global_id(0);\n  run(A, g);\n  A[g] = -1;\n}\n")
    assert lint(src) == []


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
