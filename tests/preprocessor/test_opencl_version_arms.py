"""`#ifndef __OPENCL_VERSION__` arms (issue 29: SeisCL's headers, shared with CUDA, hold
`__device__ __inline__ float2 operator-(...)` in one; 129 CL001). The OpenCL C specification's
predefined macros say every compiler for an OpenCL device must define `__OPENCL_VERSION__`
(its value is the device's): whether it is defined is decided in every mode, so an arm that needs
it undefined is never compiled as OpenCL C, and nothing in it is judged. Its value stays the
device's: `#if __OPENCL_VERSION__ < 120` is decided only where a target is named. clang-19 leaves
the macro to the runtime's compiler; the clang layer passes it as a device compiler defines it.

`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "opencl_version_arms"
FILES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    assert [(d["line"], d["code"], d["message"]) for d in reports(path) if d["severity"] == "error"] == []


def test_an_arm_the_version_value_decides_stays_judged(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("#if __OPENCL_VERSION__ < 120\nint f(int x) { return x }\n#endif\n"
                    "kernel void k(global int *o) { o[0] = 1; }\n")
    assert [(d["line"], d["code"]) for d in reports(path)] == [(2, "CL001")]


def test_a_live_arm_stays_judged(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("#ifdef __OPENCL_VERSION__\nint f(int x) { return x }\n#endif\n"
                    "kernel void k(global int *o) { o[0] = 1; }\n")
    assert [(d["line"], d["code"]) for d in reports(path)] == [(2, "CL001")]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles_as_a_device_compiler_would(path: Path) -> None:
    r = clang(path, "-D__OPENCL_VERSION__=200")
    assert r.returncode == 0, r.stderr
