"""Held-out cases of test_addrspace_head_memo.py (crc32 of the name % 3 == 0), written with
the tune cases, before the code, and first run once the code was done (issue 32, session 20)."""

from __future__ import annotations

from test_addrspace_head_memo import SOURCE, typed


def test_pragma_typed_in_earlier_body() -> None:
    at = SOURCE.index(b"return x; }")
    got = typed(SOURCE, at, b"\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n")
    # the pragma holds from its line on: both kernels' 'half' parameters are allowed
    assert not any(d.code == "CL104" and "'half'" in d.message for d in got)


def test_typing_in_second_kernel() -> None:
    at = SOURCE.index(b"    int y = 2;")
    got = typed(SOURCE, at, b"int z = y * 2;\n")
    half = [d for d in got if d.code == "CL104" and "'half'" in d.message]
    assert len(half) == 2


def test_head_param_typed() -> None:
    at = SOURCE.index(b"H h) {")
    got = typed(SOURCE, at + 3, b", half h2")
    assert sum(d.code == "CL104" and "'half'" in d.message for d in got) == 3
