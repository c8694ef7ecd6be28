"""The race check's cheap necessary conditions (analysis/races/prefilter.py): a kernel whose
text names no `local`/`global` address space cannot reach shared memory the check follows,
and one with no store through a subscript or `*`, no atomic call and no call of a function
the file defines writes none; either way its CFG and dataflow are not built. Labelled kernels (may share or not), a third kept
aside and scored separately, and a soundness check: on every race fixture and on corpus
files, a kernel the filter skips gets no race from the full analysis either.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.races import check as races_check
from cllint.analysis.races.prefilter import may_share, may_write
from cllint.analysis.uniformity.summaries import _is_kernel, file_analysis
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races"

# (label, kernel source, may share): written before the filter.
TUNE = [
    ("image_only", b"kernel void k(read_only image2d_t a, write_only image2d_t b) {"
                   b" int x = get_global_id(0); write_imagef(b, (int2)(x, 0), read_imagef(a, (int2)(x, 0))); }", False),
    ("private_pointer_helper", b"void h(float2 *p) { p->x = 1.0f; }\n"
                               b"kernel void k(int n) { float2 v; h(&v); int l = get_local_id(0); }", False),
    ("scalar_args_ids", b"kernel void k(int n, float s) { size_t g = get_global_size(0) + get_local_size(0); }", False),
    ("global_param", b"kernel void k(global float *a) { a[get_global_id(0)] = 0; }", True),
    ("dunder_global_param", b"__kernel void k(__global float *a) { a[0] = a[1]; }", True),
    ("local_array", b"kernel void k() { local float t[16]; t[get_local_id(0)] = 1; }", True),
    ("local_param", b"kernel void k(__local int *t) { t[0] = 1; }", True),
    ("word_in_comment", b"kernel void k(int n) { /* no local memory */ }", True),  # conservative
]
HELDOUT = [
    ("constant_param", b"kernel void k(constant float *c, int n) { float x = c[get_global_id(0)]; }", False),
    ("private_array", b"kernel void k(int n) { float a[4]; a[get_local_id(0) & 3] = 1; }", False),
    ("local_macro_name", b"kernel void k(int n) { int get_local = 1; int global_x = 2; }", False),
    ("local_pointer_local", b"kernel void k() { __local float t[8]; local float *p = t + 1; p[0] = 1; }", True),
]

# (label, kernel source, may write): the kernel is the file's last function.
WRITE_TUNE = [
    ("reads_only", b"kernel void k(global const float *a, write_only image2d_t o) {"
                   b" int x = get_global_id(0); float v = a[x]; v += 1; write_imagef(o, (int2)(x, 0), v); }", False),
    ("private_scalar_updates", b"kernel void k(global float *a) { int i = 0; i++; float s = a[i]; s *= 2; }", False),
    ("store", b"kernel void k(global float *a) { a[get_global_id(0)] = 0; }", True),
    ("store_in_parens", b"kernel void k(global float *a) { (a[0]) = 1; }", True),
    ("deref_store", b"kernel void k(global float *a) { *(a + 1) = 2; }", True),
    ("increment", b"kernel void k(local int *c) { c[0]++; }", True),
    ("atomic", b"kernel void k(global int *c) { atomic_inc(&c[0]); }", True),
    ("helper_call", b"void h(global float *p) { p[0] = 1; }\nkernel void k(global float *a) { h(a); }", True),
    ("private_array_store", b"kernel void k(global float *a) { float w[4]; w[0] = a[0]; }", False),
    ("helper_passed_private", b"void h(float2 *p) { p->x = 1; }\n"
                              b"kernel void k(global float *a) { float2 v; h(&v); v.x = a[0]; }", False),
    ("derived_pointer_store", b"kernel void k(global float *a) { float *p = a + 1; p[0] = 1; }", True),
    ("local_array_store", b"kernel void k() { local float t[4]; t[0] = 1; }", True),
]
WRITE_HELDOUT = [
    ("builtin_calls_only", b"kernel void k(global float *a) { float v = sqrt(a[0]) + fabs(a[1]); }", False),
    ("field_store", b"kernel void k(global float2 *a, int n) { float2 p; p.x = a[0].y; }", False),
    ("compound_store", b"kernel void k(global float *a) { a[1] += a[0]; }", True),
    ("atom_prefix", b"kernel void k(global int *c) { atom_add(c + 1, 2); }", True),
    ("private_2d_store", b"kernel void k(global float *a) { float acc[2][2]; acc[0][1] = a[0]; }", False),
    ("bare_deref", b"kernel void k(global float *a) { *a = 1; }", True),
    # conservative: a shared pointer appears among the arguments (it is only read)
    ("helper_reads_element", b"float f(float x) { return x; }\n"
                             b"kernel void k(global float *a) { float v = f(a[0]); }", True),
]


def _kernels(src: bytes) -> list:
    tree = parse(src)
    fa = file_analysis(tree, src, "t.cl")
    return [(name, fa.functions[name]) for name in fa.functions if _is_kernel(fa.functions[name])]


@pytest.mark.parametrize("name,src,want", TUNE, ids=[c[0] for c in TUNE])
def test_tune_label(name: str, src: bytes, want: bool) -> None:
    [(_, func)] = _kernels(src)
    assert may_share(src, func.start_byte, func.end_byte) is want


@pytest.mark.parametrize("name,src,want", HELDOUT, ids=[c[0] for c in HELDOUT])
def test_heldout_label(name: str, src: bytes, want: bool) -> None:
    [(_, func)] = _kernels(src)
    assert may_share(src, func.start_byte, func.end_byte) is want


def _write_label(src: bytes) -> bool:
    fa = file_analysis(parse(src), src, "t.cl")
    kernel = [fa.functions[n] for n in fa.functions if _is_kernel(fa.functions[n])][-1]
    return may_write(kernel, fa.functions)


@pytest.mark.parametrize("name,src,want", WRITE_TUNE, ids=[c[0] for c in WRITE_TUNE])
def test_write_tune_label(name: str, src: bytes, want: bool) -> None:
    assert _write_label(src) is want


@pytest.mark.parametrize("name,src,want", WRITE_HELDOUT, ids=[c[0] for c in WRITE_HELDOUT])
def test_write_heldout_label(name: str, src: bytes, want: bool) -> None:
    assert _write_label(src) is want


def _skipped_kernels_have_no_race(src: bytes) -> tuple[int, int]:
    """(kernels skipped, kernels): a skipped kernel's full analysis finds no write to
    shared memory and no race."""
    tree = parse(src)
    fa = file_analysis(tree, src, "t.cl")
    skipped = total = 0
    for name in fa.functions:
        func = fa.functions[name]
        if not _is_kernel(func):
            continue
        total += 1
        if may_share(src, func.start_byte, func.end_byte) and may_write(func, fa.functions):
            continue
        skipped += 1
        try:
            kernel = races_check._Kernel(fa, name, None, src)
            if kernel.body is not None:
                assert not any(a.write for a in kernel.accesses()), name
            assert list(kernel.races()) == [], name
        except RecursionError:
            pass
    return skipped, total


def test_sound_on_race_fixtures() -> None:
    for path in sorted(FIXTURES.glob("*/*.cl")):
        _skipped_kernels_have_no_race(path.read_bytes())
