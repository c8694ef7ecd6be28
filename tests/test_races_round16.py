"""CL21x on the round-16 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for shapes earlier rounds left open (tests/rules/fixtures/races/round16/):
a private struct holding a `__global` or `__local` pointer handed on from helper to helper (by
value, by its address, a by-value copy's address), and a pointer chosen by `?:` or an if/else
passed to a helper (as the argument itself, or a private pointer defined by it). Racy and
race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest before the
code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round16.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round16"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 5


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


def test_heldout_targets() -> None:
    # scored once, after the code: 3/3 races, 0/2 false alarms (0/3, 0/2 before)
    f = figures(HELDOUT)
    assert f["positives"] >= 3 and f["negatives"] >= 2
    assert f["fp"] == 0 and f["tp"] >= 3, f


REF = b"typedef struct { global int *p; int n; } ref_t;\n"


@pytest.mark.parametrize("helpers, call, racy", [
    # a struct handed on whole, by value or by address, to a helper that only reads its fields
    (b"void put(ref_t s, int i, int v) { s.p[i] = v; }\nvoid mid(ref_t s, int i, int v) { put(s, i, v); }",
     b"mid(s, l + 1, l);", True),
    (b"void put(ref_t s, int i, int v) { s.p[i] = v; }\nvoid mid(ref_t s, int i, int v) { put(s, i, v); }",
     b"mid(s, l, l);", False),
    (b"void put(ref_t *s, int i, int v) { s->p[i] = v; }\nvoid mid(ref_t *s, int i, int v) { put(s, i, v); }",
     b"mid(&s, l + 1, l);", True),
    (b"void put(ref_t *s, int i, int v) { s->p[i] = v; }\nvoid mid(ref_t s, int i, int v) { put(&s, i, v); }",
     b"mid(s, l + 1, l);", True),
    # the helper handed the struct moves its pointer first: which one `put` sees is not read (silent)
    (b"void put(ref_t *s, int i, int v) { s->p[i] = v; }\n"
     b"void mid(ref_t *s, int i, int v) { s->p = s->p + 1; put(s, i, v); }", b"mid(&s, l - 1, l);", False),
    # ... and a helper further on that does (racy: A[l] and A[l + 1]; silent, a known miss)
    (b"void put(ref_t *s, int i, int v) { s->p = s->p + 1; s->p[i] = v; }\n"
     b"void mid(ref_t *s, int i, int v) { put(s, i, v); }", b"mid(&s, l, l);", False),
    # handed to a helper the file does not define: not followed
    (b"void put(ref_t s, int i, int v);\nvoid mid(ref_t s, int i, int v) { put(s, i, v); }",
     b"mid(s, 0, l);", False),
])
def test_a_struct_handed_on_between_helpers(helpers: bytes, call: bytes, racy: bool) -> None:
    src = (REF + helpers + b"\nkernel void k(global int *A) {\n  int l = get_global_id(0);\n"
           b"  ref_t s; s.p = A; s.n = 1;\n  " + call + b"\n  A[l] = A[l] + 1;\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("choose, call, racy", [
    # a pointer chosen by ?: (or an if/else) passed to a helper: read once per choice
    (b"", b"put(c ? A : B, g + 1, g);", True),
    (b"", b"put(c ? A : B, g, g);", False),
    (b"", b"put(c ? B : C, g + 1, g);", False),  # neither choice is A
    (b"global int *p = c ? A : B;", b"put(p, g + 1, g);", True),
    (b"global int *p;\n  if (c) p = A; else p = B;", b"put(p, g + 1, g);", True),
    (b"global int *p;\n  if (c) p = B; else p = C;", b"put(p, g + 1, g);", False),
    # one choice not followed (a pointer read from memory): which work-items take the other is unknown
    (b"global int *p = c ? A : (global int *)B[0];", b"put(p, g + 1, g);", False),
    # the choice on the id: odd work-items' A[g >> 1], even ones' B[g >> 1], each cell one work-item's
    (b"global int *p = (g & 1) ? B : C;", b"put(p, g >> 1, g);", False),
    (b"global int *p = (g & 1) ? B : C;", b"put(p, 0, g);", True),
])
def test_a_chosen_pointer_passed_to_a_helper(choose: bytes, call: bytes, racy: bool) -> None:
    src = (b"void put(global int *p, int i, int v) { p[i] = v; }\n"
           b"kernel void k(global int *A, global int *B, global int *C, int c) {\n  int g = get_global_id(0);\n  "
           + choose + b"\n  " + call + b"\n  A[g] = 1;\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("step, racy", [
    # ping-pong buffers chosen by one flag: src and dst are never the same buffer (a flag read
    # through arithmetic, `(it & 1) ?`, is not evaluated, in a kernel's own `?:` as here: silent)
    (b"void step(global int *src, global int *dst, int g) { dst[g] = src[g] + src[g + 1]; }", False),
    # ... a helper that writes its source's neighbour does race (work-items g and g + 1 on src[g + 1])
    (b"void step(global int *src, global int *dst, int g) { src[g + 1] = dst[g]; src[g] = 0; }", True),
])
def test_two_pointers_chosen_by_one_flag(step: bytes, racy: bool) -> None:
    src = (step + b"\nkernel void k(global int *A, global int *B, int flip) {\n  int g = get_global_id(0);\n"
           b"  global int *src = flip ? A : B;\n  global int *dst = flip ? B : A;\n  step(src, dst, g);\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
