"""A local declared in a conditional arm the parser skipped (it reads one arm of a group that
splits a statement, e.g. a `for` header written twice under `#ifdef G` / `#else`), used in the
matching arm of a later group (issue 29: spector's mergesort, `for (int log_chunk_size = ...)`
in the `#else` arm, then `log_chunk_size` in a later `#else`). The compiler sees the
declaration whenever it sees the use: no CL010. A name no arm declares is still reported.

Cases in HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, reports  # noqa: E402


SPLIT_FOR = """#define GROUPS 1
#if GROUPS > 1
#define GENERAL
#endif
kernel void k(global int *out, int n
#ifdef GENERAL
    , int start
#endif
    ) {
#ifdef GENERAL
    for (int size = start; size < n; size <<= 1) {
#else
    for (int log_size = 0; (1 << log_size) < n; log_size++) {
        const int size = 1 << log_size;
#endif
#ifdef GENERAL
        int step = size * 2;
#else
        int step = 1 << (log_size + 1);
#endif
        out[get_global_id(0)] += step;
    }
}
"""
ELSE_DECLARED = """#define GROUPS 1
#if GROUPS > 1
#define USE_VEC
#endif
kernel void k(global float *out
#if defined(USE_VEC)
    , int lanes
#endif
    ) {
    int i = get_global_id(0);
#if defined(USE_VEC)
    float4 acc = vload4(i, out);
    {
#else
    float acc = out[i];
    {
#endif
#if defined(USE_VEC)
        acc *= 2.0f;
        vstore4(acc, i, out);
#else
        out[i] = acc * 2.0f;
#endif
    }
}
"""
NOWHERE = """#define GROUPS 1
#if GROUPS > 1
#define GENERAL
#endif
kernel void k(global int *out, int n
#ifdef GENERAL
    , int start
#endif
    ) {
#ifdef GENERAL
    for (int size = 1; size < n; size <<= 1) {
#else
    for (int log_size = 0; (1 << log_size) < n; log_size++) {
#endif
        out[0] += missing_count;
    }
}
"""

CASES = {"split_for_header": (SPLIT_FOR, []), "else_declared_block": (ELSE_DECLARED, []),
         "declared_in_no_arm": (NOWHERE, ["CL010"])}

HELD_POINTER = """#define COPIES 2
#if COPIES == 1
#define IN_PLACE
#endif
kernel void k(global float *a, global float *b, int n
#ifndef IN_PLACE
    , int stride
#endif
    ) {
#ifndef IN_PLACE
    for (global float *dst = b; dst < b + n; dst++) {
#else
    for (global float *dst = a, *src = a; dst < a + n; dst++, src++) {
#endif
#ifndef IN_PLACE
        *dst = 1.0f;
#else
        *dst = *src + 1.0f;
#endif
    }
}
"""
HELD_USE_ONLY = """#define GROUPS 1
#if GROUPS > 1
#define WIDE
#endif
kernel void k(global int *out, int n
#ifdef WIDE
    , int width
#endif
    ) {
#ifdef WIDE
    for (int w = 0; w < n; w += 4) {
#else
    for (int w = 0; w < n + extra; w++) {
#endif
        out[w] = extra;
    }
}
"""
HELD_OUT = {"pointer_in_else_header": (HELD_POINTER, []), "use_only_in_skipped_arm": (HELD_USE_ONLY, ["CL010"])}


def _codes(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "k.cl"
    path.write_text(text)
    found = reports(path)
    return sorted(d["code"] for d in found if d["code"] in ("CL010", "CL011"))


@pytest.mark.parametrize("name", sorted(CASES))
def test_tune(name: str, tmp_path: Path) -> None:
    text, expected = CASES[name]
    assert _codes(tmp_path, text) == expected


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out(name: str, tmp_path: Path) -> None:
    text, expected = HELD_OUT[name]
    assert _codes(tmp_path, text) == expected


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted({**CASES, **HELD_OUT}))
@pytest.mark.parametrize("define", [[], ["-DGENERAL", "-DUSE_VEC", "-DIN_PLACE", "-DWIDE"]])
def test_clang_labels(name: str, define: list[str], tmp_path: Path) -> None:
    text, expected = {**CASES, **HELD_OUT}[name]
    path = tmp_path / "k.cl"
    path.write_text(text)
    r = clang(path, *define)
    undeclared = "undeclared identifier" in r.stderr
    assert undeclared == bool(expected), r.stderr
