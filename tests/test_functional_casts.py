"""Kernel files in OpenCL C++ (AMD's C++ kernel language, built with `-x clc++`), recognised by
a functional cast after an operator (`-int(value >> 31)`, `= float(i)`; Bolt's
sort_float_kernels.cl, issue 29): OpenCL C has no such expression (after an operator a type
name starts only a parenthesised cast), so the file is skipped with one note as other C++ sources
are. Declarators (`int (*fp)(int)`), casts and type names in sizeof, comments and strings are C.

Cases written before the change; HELDOUT scored only once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.source_kind import not_opencl_reason

TUNE = {
    "negated_int_cast": (b"kernel void k(global uint *d) {\n  uint value = d[0];\n"
                         b"  unsigned int mask = -int(value >> 31) | 0x80000000;\n  d[0] = value ^ mask;\n}\n", True),
    "function_pointer_declarator": (b"typedef int (*fp)(int);\nint (*g)(int);\n"
                                    b"kernel void k(global int *d) { d[0] = (int)(d[1]); }\n", False),
    "c_cast_after_operator": (b"kernel void k(global int *d, float x) { d[0] = -(int)(x) + (int)x; }\n", False),
}

HELDOUT = {
    "assigned_float_cast": (b"kernel void k(global float *o) {\n  int i = get_global_id(0);\n"
                            b"  float y = 2.0f * float(i);\n  o[i] = y;\n}\n", True),
    "sizeof_type_name": (b"kernel void k(global int *o) { o[0] = sizeof(int(*)[4]) + sizeof(int); }\n", False),
    "cast_in_a_comment": (b"// C++ would write -int(x) here\n"
                          b"kernel void k(global int *o) { o[0] = -(int)1.5f; /* = int(2) */ }\n", False),
}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    text, cpp = TUNE[name]
    reason = not_opencl_reason(text)
    assert (reason is not None and "C++" in reason) if cpp else reason is None, reason


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    text, cpp = HELDOUT[name]
    reason = not_opencl_reason(text)
    assert (reason is not None and "C++" in reason) if cpp else reason is None, reason
