"""Held-out cases for the per-head image memo (written with tests/test_image_program_memo.py,
before the code): one head text under two macro states, a kernel typed between image kernels
that takes no image, and an image head deleted to a plain one."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.diagnostics import Severity

TWICE = b"""#define IMG image2d_t
kernel void k(read_only IMG in, global float *o) { o[0] = 1.0f; }
#undef IMG
#define IMG int
kernel void k2(read_only image2d_t in, global float *o) { o[0] = 2.0f; }
"""


def _equal_after(host: Host, text: bytes) -> list:
    got = host.snapshot().diagnostics("k.cl")
    fresh = Host()
    fresh.set_file("k.cl", text)
    want = fresh.snapshot().diagnostics("k.cl")
    assert [(d.code, d.span, d.message) for d in got] == [(d.code, d.span, d.message) for d in want], text
    return got


def _type(host: Host, text: bytes, at: int, typed: bytes) -> bytes:
    for i in range(len(typed)):
        ch = typed[i:i + 1]
        host.apply_change(Change(edits={"k.cl": [TextEdit(at + i, at + i, ch)]}))
        text = text[:at + i] + ch + text[at + i:]
        _equal_after(host, text)
    return text


def test_one_head_text_under_two_macro_states() -> None:
    host = Host()
    host.set_file("k.cl", TWICE)
    host.snapshot().diagnostics("k.cl")
    at = TWICE.index(b"kernel void k2")
    text = _type(host, TWICE, at, b"kernel void k(read_only IMG in, global float *o) { o[0] = 1.0f; }\n")
    assert text.count(b"kernel void k(read_only IMG in") == 2


def test_a_kernel_without_images_typed_between_image_kernels() -> None:
    host = Host()
    host.set_file("k.cl", TWICE)
    host.snapshot().diagnostics("k.cl")
    at = TWICE.index(b"#undef IMG")
    text = _type(host, TWICE, at, b"kernel void plain(global int *p) { p[0] = 0; }\n")
    got = _equal_after(host, text)
    assert not any(d.severity == Severity.INFO and "program requires" in d.message for d in got)


def test_an_image_parameter_deleted() -> None:
    host = Host()
    host.set_file("k.cl", TWICE)
    host.snapshot().diagnostics("k.cl")
    start = TWICE.index(b"read_only image2d_t in, ")
    text = TWICE
    for _ in range(len(b"read_only image2d_t in, ")):
        host.apply_change(Change(edits={"k.cl": [TextEdit(start, start + 1, b"")]}))
        text = text[:start] + text[start + 1:]
        _equal_after(host, text)
