"""CL21x on the round-14 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for the shapes round 13 left open (tests/rules/fixtures/races/round14/):
the kernel specifier and address-space qualifiers spelt through object-like macros (`#define
KERNEL __kernel`, `#define GLOBAL __global`, `#define LOCAL_MEM local`), parameters and locals
of a typedef'd pointer type (`typedef __global int *gptr`), an index from a vector's component,
and a store guarded by an atomic's returned value. Racy and race-free twins; `heldout/` (by crc32
of the name % 3 == 0, written with the rest before the code) is only scored. Every label is
confirmed by `oclgrind-kernel --data-races` (tests/test_races_oclgrind.py reads every fixture
under races/).

    .venv/bin/python tests/test_races_round14.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round14"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 14 and len(HELDOUT) >= 8


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


def test_heldout_targets() -> None:
    # scored once, after the code: 4/4 races, 0/8 false alarms (0/4, 0/8 before)
    f = figures(HELDOUT)
    assert f["positives"] >= 4 and f["negatives"] >= 8
    assert f["fp"] == 0 and f["tp"] >= 4, f


def _kernel(head: bytes, params: bytes, body: bytes) -> bytes:
    return head + b"\n" + b"KERNEL void k(" + params + b") {\n  int g = get_global_id(0);\n  " + body + b"\n}\n"


@pytest.mark.parametrize("define, racy", [
    (b"#define KERNEL __kernel", True),
    (b"#define KERNEL kernel", True),
    (b"#define KERNEL __kernel __attribute__((reqd_work_group_size(64, 1, 1)))", False),  # not one word: not read
    (b"#define KERNEL __global", False),  # no kernel: a function no one launches
    (b"#define KERNEL", False),  # an empty macro: a plain function
])
def test_the_kernel_specifier_through_a_macro(define: bytes, racy: bool) -> None:
    got = lint(_kernel(define, b"__global int *A", b"A[g + 1] = A[g];"))
    assert bool(got) == racy, got


@pytest.mark.parametrize("define, param, racy", [
    (b"#define GLOBAL __global", b"GLOBAL int *A", True),
    (b"#define GLOBAL global", b"GLOBAL int *A", True),
    (b"#define GLOBAL __private", b"GLOBAL int *A", False),  # a private out-parameter
    (b"#define GLOBAL __constant", b"GLOBAL int *A", False),  # (clang rejects the store: not the race rule's)
    (b"#ifdef ON_HOST\n#define GLOBAL\n#else\n#define GLOBAL __global\n#endif", b"GLOBAL int *A", True),
    (b"#define GLOBAL __global\n#undef GLOBAL\n#define GLOBAL", b"GLOBAL int *A", False),  # the definition in force
])
def test_a_qualifier_through_a_macro(define: bytes, param: bytes, racy: bool) -> None:
    src = _kernel(b"#define KERNEL __kernel\n" + define, param, b"A[g + 1] = A[g];")
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("typedef, decl, racy", [
    (b"typedef __global int *gptr;", b"gptr A", True),
    (b"typedef global int *gptr;", b"gptr A", True),
    (b"typedef int *gptr;", b"gptr A", False),  # a generic/private pointer: not followed
    (b"typedef __global int *gptr;", b"const gptr A", True),
])
def test_a_typedef_of_a_shared_pointer(typedef: bytes, decl: bytes, racy: bool) -> None:
    src = typedef + b"\n__kernel void k(" + decl + b") {\n  int g = get_global_id(0);\n  A[g + 1] = A[g];\n}\n"
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("decl, index, racy", [
    (b"int2 p = (int2)(l, l + 1);", b"p.y", True),
    (b"int2 p = (int2)(l, l + 1);", b"p.x", False),  # its own cell
    (b"int4 p = (int4)(l);", b"p.w", False),  # one element: every component
    (b"int4 p = (int4)(0, l, 2, 3);", b"p.s1", False),
    (b"int4 p = (int4)(0, l, 2, 3);", b"p.s2", True),  # every work-item reads L[2], work-item 2 writes it
    (b"int4 p = (int4)(l, l, l, l + 1); p.w = l;", b"p.w", False),  # assigned after: the field's store
])
def test_an_index_from_a_vector_component(decl: bytes, index: bytes, racy: bool) -> None:
    src = (b"kernel void k(global int *out, local int *L) {\n  int l = get_local_id(0);\n  " + decl
           + b"\n  L[l] = l;\n  out[get_global_id(0)] = L[" + index + b"];\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("body, racy", [
    # an atomic's returned value is data: a relational test of it lets several work-items through
    (b"if (atomic_inc(&c[0]) < 2) x[0] = g;", True),
    (b"int old = atomic_add(c, 1);\n  if (old > 5) x[0] = g;", True),
    # an equality test lets one through (each sees its own old value: "is it mine?")
    (b"if (atomic_inc(&c[0]) == 0) x[0] = g;", False),
    (b"if (atomic_inc(c) == get_num_groups(0) - 1) x[0] = g;", False),  # the last work-group's
    (b"if (atomic_cmpxchg(c, 0, 1) == 0) { x[0] = g; atomic_xchg(c, 0); }", False),  # a lock's holder
    (b"int i = atomic_inc(c);\n  if (i < 64) x[i] = g;", False),  # an append: its own slot
])
def test_a_guard_on_an_atomics_returned_value(body: bytes, racy: bool) -> None:
    src = b"kernel void k(global int *c, global int *x) {\n  int g = get_global_id(0);\n  " + body + b"\n}\n"
    got = lint(src)
    assert bool(got) == racy, got


@pytest.mark.parametrize("header, racy", [
    (b"#define KERNEL_FQ __kernel\n#define GLOBAL_AS __global\n", True),
    (b"#ifdef IS_CUDA\n#define KERNEL_FQ extern \"C\" __global__\n#define GLOBAL_AS\n#else\n"
     b"#define KERNEL_FQ kernel\n#define GLOBAL_AS __global\n#endif\n", True),  # (hashcat's inc_vendor.h)
    (b"#define KERNEL_FQ __kernel\n#define GLOBAL_AS\n", False),  # a private pointer
])
def test_spellings_from_an_included_header(tmp_path: Path, header: bytes, racy: bool) -> None:
    from cllint.analysis.lint import LintOptions
    from cllint.cli.engine import lint_source

    (tmp_path / "vendor.h").write_bytes(header)
    src = b'#include "vendor.h"\nKERNEL_FQ void k(GLOBAL_AS int *A) {\n  int g = get_global_id(0);\n  A[g + 1] = A[g];\n}\n'
    got = lint_source(str(tmp_path / "k.cl"), src, LintOptions(select=("CL21",), include_paths=(str(tmp_path),)))
    assert bool(got) == racy, got


@pytest.mark.parametrize("helper, racy", [
    # a helper's loop whose header the work-group shares: its passes are enumerated as a
    # kernel's own are, each work-item in any pass (no barrier in the helper)
    (b"for (int d = 8; d > 0; d >>= 1) { if (l < d) s[l] += s[l + d]; }", True),
    (b"for (int d = get_local_size(0) / 2; d > 0; d >>= 1) { if (l < d) s[l] += s[l + d]; }", True),
    (b"for (int i = 0; i < 4; i++) s[l + i] = i;", True),  # work-items 0 and 1 at s[1]
    (b"for (int i = 0; i < 4; i++) s[4 * l + i] = i;", False),  # each its own four cells
    (b"for (int i = 0; i < 4; i++) s[l] += i;", False),  # its own cell, every pass
    (b"for (int d = 8; d > 0; d >>= 1) { if (l < d) s[l] += s[l + d]; barrier(CLK_LOCAL_MEM_FENCE); }", False),
    # a bound defined once from sizes (`int n = get_local_size(0)`) is as shared as the sizes
    (b"int n = get_local_size(0);\n  for (int d = n / 2; d > 0; d >>= 1) { if (l < d) s[l] += s[l + d]; }", True),
    (b"int n = 4;\n  for (int i = 0; i < n; i++) s[4 * l + i] = i;", False),
    (b"int n = l;\n  for (int i = 0; i < n; i++) s[l] += i;", False),  # (the work-item's own bound: not enumerated)
])
def test_a_loop_inside_a_helper(helper: bytes, racy: bool) -> None:
    src = (b"void work(local int *s, int l) {\n  " + helper + b"\n}\n"
           b"kernel void k(global int *out) {\n  local int s[64];\n  int l = get_local_id(0);\n  s[l] = l;\n"
           b"  barrier(CLK_LOCAL_MEM_FENCE);\n  work(s, l);\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           b"  if (l == 0) out[get_group_id(0)] = s[0];\n}\n")
    got = lint(src)
    assert bool(got) == racy, got


def test_the_report_names_the_accesses_and_lines() -> None:
    src = b"#define GLOBAL __global\n#define KERNEL __kernel\nKERNEL void k(GLOBAL int *A) {\n" \
          b"  int g = get_global_id(0);\n  A[g + 1] = A[g];\n}\n"
    got = lint(src)
    assert [d.code for d in got] == ["CL211"], got
    assert src.count(b"\n", 0, got[0].span.start) == 4 and "'A[" in got[0].message, got


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
