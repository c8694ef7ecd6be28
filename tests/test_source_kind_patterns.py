"""Recognising files that are not OpenCL C compiles no pattern an ordinary kernel cannot match
(issue 32: each costs ~0.2 ms of every start-up): each waits for a word it needs. Whether a
file is recognised is unchanged: the template and C++ kernel-file tests hold that."""

from __future__ import annotations

import subprocess
import sys

import pytest

from cllint.analysis.source_kind import not_opencl_reason

PROBE = """
from cllint.analysis import source_kind as s
s.not_opencl_reason(b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f % 2; }\\n")
lazies = [p for _, p in s._FIRST] + [s._JINJA_STATEMENT, s._JINJA_EXPRESSION, s._MAKO_EXPRESSION,
                                    s._MAKO_LINE, s._MAKO_CLOSER]
print(sum(p._compiled is not None for p in lazies))
"""


def test_an_ordinary_kernel_compiles_none_of_them() -> None:
    got = subprocess.run([sys.executable, "-c", PROBE], capture_output=True, text=True, check=True)
    assert got.stdout.strip() == "0"


@pytest.mark.parametrize("text,found", [
    (b'static const char *src = "__kernel void k() {}";\n', "template"),
    (b'R"(__kernel void a() {})"\nR"(__kernel void b() {})"\n', "raw string"),
    (b"MSTRINGIFY(\n__kernel void k() {}\n)\n", "C string"),
    (b"__kernel void k(__global float *a) { a[{{ idx }}] = 1.0f; }\n", "Jinja"),
    (b"__kernel void k(__global float *a) {\n% if x:\n  a[0] = 1;\n% endif\n}\n", "Mako"),
    (b"__kernel void k(__global float *a) { a[0] = ${value}; }\n", "Mako"),
    (b"__kernel void k(__global float *a) { a[0] = 1 % 3; /* end */ }\n", None),
])
def test_files_are_still_recognised(text: bytes, found: str | None) -> None:
    reason = not_opencl_reason(text)
    assert (reason is None) if found is None else (reason is not None and found in reason), reason
