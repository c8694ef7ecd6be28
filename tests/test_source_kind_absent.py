"""`not_opencl_reason` told which of its needles are absent from the text (issue 32): an editor
knows it of the text outside the bodies an edit changed, so a keystroke scans one body for the
~27 needles, not the file once per needle. Told only true absences, it must say what it says
unaided; and a host typed into must publish what a fresh lint of the same text publishes."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis import source_kind as S
from cllint.analysis.db import Change, Host, TextEdit

SAMPLES = [
    b"kernel void k(global float *o) { o[0] = 1.0f; }\n",
    b"// RUN: %clang_cc1 -x cl -cl-std=CL2.0 %s -verify\nkernel void k() {}\n",
    b"__global__ void add(float *a) { a[threadIdx.x] += 1.0f; }\n",
    b"template <typename T>\nT twice(T x) { return x + x; }\n",
    b"kernel void k(global float *o) {\n  o[0] = {{ scale }};\n}\n",
    b"kernel void k(global float *o) {\n% if double:\n  o[0] = 1.0;\n% endif\n}\n",
    b"kernel void k(global float *o) {\n  o[0] = 1.0f;\n%s\n}\n",
    b"class Box {\npublic:\n  int v;\n};\n",
    b"kernel void k(global int *o) { o[0] = -int(o[1] >> 31); }\n",
    b"const char *src = \"kernel void k() {}\";\n",
    b"#define __device__\n__device__ float f(float x) { return x; }\nkernel void k() {}\n",
    b"kernel void k(global float *o) { o[0] = 5 % 3; /* {{ not code }} */ }\n",
]


def test_told_every_absence_it_says_what_it_says_unaided() -> None:
    for data in SAMPLES:
        for text in (data, data + b" " * S._SCAN_AT_ONCE):
            assert S.not_opencl_reason(text, S.absent_needles(text)) == S.not_opencl_reason(text), text[:40]


PIECES = [b"{", b"}", b"$", b"%", b"s", b"d", b"end", b"if", b"\n", b" ", b"int(", b"=", b"-", b"class ",
          b"public:", b"__global__ void", b"template<typename", b"cuda", b"RUN:", b"namespace x {", b"#include <vector>",
          b"/*", b"*/", b"//", b"\"", b"kernel void k() ", b";"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=14), st.data())
def test_any_true_absences_change_nothing(parts: list[bytes], data: st.DataObject) -> None:
    text = b"".join(parts)
    absent = sorted(S.absent_needles(text))
    told = frozenset(data.draw(st.lists(st.sampled_from(absent), unique=True)) if absent else [])
    assert S.not_opencl_reason(text, told) == S.not_opencl_reason(text)


BASE = b"""float helper(float x) {
    return x * 2.0f;
}

kernel void k(global float *o) {
    int i = get_global_id(0);
    o[i] = helper(o[i]);
}
"""


def _typed_equals_fresh(base: bytes, at: int, typed: bytes) -> list[str]:
    host = Host()
    host.set_file("k.cl", base)
    host.snapshot().diagnostics("k.cl")
    text = base
    codes = []
    for i in range(len(typed)):
        ch = typed[i:i + 1]
        host.apply_change(Change(edits={"k.cl": [TextEdit(at + i, at + i, ch)]}))
        text = text[:at + i] + ch + text[at + i:]
        got = host.snapshot().diagnostics("k.cl")
        fresh = Host()
        fresh.set_file("k.cl", text)
        want = fresh.snapshot().diagnostics("k.cl")
        assert [(d.code, d.span, d.message) for d in got] == [(d.code, d.span, d.message) for d in want], text
        codes = [d.code for d in got]
    return codes


def test_typing_cuda_into_a_body_is_seen() -> None:
    at = BASE.index(b"    return x")
    assert "CL006" in _typed_equals_fresh(BASE, at, b"__global__ void g(float *a) {}\n")


def test_typing_a_template_marker_into_a_body_is_seen() -> None:
    at = BASE.index(b"    o[i] =")
    assert "CL006" in _typed_equals_fresh(BASE, at, b"{% if fp64 %}\n")


def test_typing_plain_code_stays_opencl() -> None:
    at = BASE.index(b"    o[i] =")
    assert "CL006" not in _typed_equals_fresh(BASE, at, b"    o[0] = 5 % 3;\n")
