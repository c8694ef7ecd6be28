"""Branches only another language's compiler reads (`#ifdef __NVCC__`, `#if defined(__cplusplus)`):
clang-19 defines none of those names for OpenCL C, so their code is never compiled as OpenCL C and
is skipped as `#if 0` is. Dual CUDA/OpenCL sources put C++ there (a `template <...>` line before a
head, operator overloads, shims that overload a built-in): read as code it broke the parse of the
function after it and bound calls to the shims. Every case compiles cleanly with clang-19
(`-cl-std=CL3.0`); written before the change, `heldout` (a third) scored once after it (3/3; the
start tree reported on 1 of them, `namespace_outside_opencl`; on 1 of 5 tune cases).
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions
from cllint.analysis.preprocessor.foreign import foreign_condition, without_foreign_arms
from cllint.cli.engine import lint_source
from cllint.project.index import index_source

CASES = {
    "tune/nvcc_template_head": "#ifdef __NVCC__\n#define DEV __device__\n#else\n#define DEV\n#endif\n#ifdef __NVCC__\ntemplate <const int A, const int B>\n#endif\nDEV int f(int x) {\n    return x + 1;\n}\nkernel void k(global int *o) { o[0] = f(o[1]); }\n",
    "tune/cuda_shim_overload": "#ifdef __CUDACC__\ninline float4 convert_float4_rtp(short4 v) { return (float4)(0.f); }\n#endif\nkernel void k(global float4 *o, float4 a) { o[0] = convert_float4_rtp(isgreater(a, a)); }\n",
    "tune/cplusplus_extern_c": "#ifdef __cplusplus\nextern \"C\" {\n#endif\nint twice(int x) { return 2 * x; }\n#ifdef __cplusplus\n}\n#endif\nkernel void k(global int *o) { o[0] = twice(o[1]); }\n",
    "tune/host_half_of_a_shared_header": "#ifdef __cplusplus\n#include <cstdint>\ntypedef std::int32_t int_t;\n#else\ntypedef int int_t;\n#endif\nstruct S { int_t n; };\nkernel void k(global struct S *s) { s->n = 1; }\n",
    "tune/split_block_in_cuda_arms": "kernel void k(global float *o, int n) {\n#ifdef __NVCC__\n    if (n > 0) {\n#endif\n        o[0] = 1.0f;\n#ifdef __NVCC__\n    }\n#endif\n}\n",
    "heldout/hip_template": "#if defined(__HIPCC__)\ntemplate <typename T>\n#endif\nfloat twice(float x) { return 2.0f * x; }\nkernel void k(global float *o) { o[0] = twice(o[1]); }\n",
    "heldout/cuda_arch_shadow": "#ifdef __CUDA_ARCH__\ninline float mad(float a, float b) { return a * b; }\n#endif\nkernel void k(global float *o) { o[0] = mad(o[1], o[2], o[3]); }\n",
    "heldout/namespace_outside_opencl": "#if defined(__cplusplus)\nnamespace kernels {\n#endif\ninline int clampi(int x) { return x < 0 ? 0 : x; }\n#if defined(__cplusplus)\n}\n#endif\nkernel void k(global int *o) { o[0] = clampi(o[1]); }\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_report_on_code_clang_compiles(name: str, tmp_path: Path) -> None:
    found = lint_source(str(tmp_path / "k.cl"), CASES[name].encode(), LintOptions())
    assert [(d.code, d.message) for d in found] == []


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_accepts(name: str, tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(CASES[name])
    done = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL3.0", "-fsyntax-only", str(tmp_path / "k.cl")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("kind", "condition", "foreign"), [
    ("ifdef", "__NVCC__", True),
    ("if", "defined(__CUDACC__)", True),
    ("if", "defined __HIPCC__ && USE_FAST", True),
    ("if", "__cplusplus", True),
    ("ifndef", "__NVCC__", False),  # the first branch is the OpenCL C one
    ("if", "defined(__NVCC__) || defined(MCX_SRC_CONE)", False),  # the host may define the other
    ("if", "__CUDA_ARCH__ >= 350", False),  # a comparison: not read here
    ("ifdef", "USE_CUDA", False),  # not reserved: a host may pass it
])
def test_which_conditions_are_foreign(kind: str, condition: str, foreign: bool) -> None:
    assert foreign_condition(kind, condition) is foreign


def test_an_error_outside_the_foreign_branch_stays(tmp_path: Path) -> None:
    """The skipped branch hides nothing after it: a real error in the OpenCL C branch stays."""
    src = b"#ifdef __CUDACC__\ntemplate <int N>\n#else\nint broken( {\n#endif\nkernel void k() {}\n"
    assert any(d.code == "CL001" for d in lint_source(str(tmp_path / "k.cl"), src, LintOptions()))


def test_the_workspace_index_reads_a_templated_kernel_as_defined() -> None:
    src = (b"#ifdef __NVCC__\ntemplate <const int A,\n          const int B>\n#endif\n"
           b"__kernel void main_loop(__global int *o) {\n#ifdef __NVCC__\n  extern __shared__ char s[];\n#endif\n  o[0] = 1;\n}\n")
    index = index_source(src)
    assert "main_loop" in index.definitions
    assert "__shared__" not in index.uses
    assert without_foreign_arms("a\n#if defined(__cplusplus)\nb\n#else\nc\n#endif\n").split("\n")[2:5] == ["", "", "c"]
