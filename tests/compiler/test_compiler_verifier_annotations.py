"""The clang layer on kernels written for GPUVerify (issue 29, found on the gpuverify tune project
in the editor: 176 CL099). Its front end declares the specification intrinsics (`__requires`,
`__invariant`, `__barrier_invariant_N`, ... analysis/annotations.py) and `DECLARE_UF_*`; clang-19
does not, so its build of such a file is not the verifier's and its errors cascade from them,
as with vendor built-ins. Cases written before the change; the last one is held aside."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")

ANNOTATED = {
    "loop_invariants": """__kernel void foo(__local int *p) {
  __requires(get_local_size(0) == 64);
  for (int i = 0; __invariant(i >= 0), __global_invariant(__write_implies(p, true)), i < 10; i++) {
    p[get_local_id(0)] = i;
  }
}
""",
    "barrier_invariant": """__kernel void foo(__local int *p) {
  p[get_local_id(0)] = 1;
  __barrier_invariant_1(p[get_local_id(0)] == 1, get_local_id(0));
  barrier(CLK_LOCAL_MEM_FENCE);
  __assert(__read_offset_bytes(p) == 0);
}
""",
    # held out: written with the others, run only after the change
    "uninterpreted_function": """DECLARE_UF_BINARY(A, unsigned, unsigned, unsigned);
__kernel void foo(__global unsigned *q) {
  q[get_global_id(0)] = A(q[0], 1u);
}
""",
}

def _clang_reports(root: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                        "--compiler", "clang", "."], cwd=root, capture_output=True, text=True, timeout=180)
    assert r.returncode in (0, 1), r.stderr
    return [d for d in json.loads(r.stdout) if d["code"] == "CL099"]


@pytest.mark.parametrize("name", sorted(ANNOTATED))
def test_a_verifier_annotated_kernel_gets_no_clang_errors(name: str, tmp_path: Path) -> None:
    (tmp_path / "kernel.cl").write_text(ANNOTATED[name])
    assert _clang_reports(tmp_path) == []


def test_a_plain_kernel_keeps_clangs_errors(tmp_path: Path) -> None:
    """Control: without annotations the layer still reports what only clang sees."""
    (tmp_path / "kernel.cl").write_text("__kernel void foo(__global int *q) {\n  q[0] = (int)sizeof(struct nope);\n}\n")
    found = _clang_reports(tmp_path)
    assert [d["line"] for d in found] == [2], found


INLINE_ASSEMBLY = {
    "ptx_asm": '__kernel void t(__global int *ptr) {\n    asm("mov.u32 %0, 1;" : "=r"(ptr[0]));\n}\n',
    # held out: written with the one above, run after the change
    "asm_volatile": '__kernel void t(__global int *p) {\n    int v;\n'
                    '    asm volatile("mov.u32 %0, %%laneid;" : "=r"(v));\n    p[0] = v;\n}\n',
}


@pytest.mark.parametrize("name", sorted(INLINE_ASSEMBLY))
def test_inline_assembly_is_a_vendor_compilers(name: str, tmp_path: Path) -> None:
    """NVIDIA's OpenCL compiler takes inline PTX (`asm(...)`); clang-19 has no `asm` in OpenCL C
    ("use of undeclared identifier 'asm'"): the file is written for that compiler, as with
    vendor built-ins (Leela Zero's tensorcore_test.opencl, found in the editor)."""
    (tmp_path / "kernel.cl").write_text(INLINE_ASSEMBLY[name])
    assert _clang_reports(tmp_path) == []


TARGET_BUILTINS = {
    "amdgcn": "uint get_group_x(void) {\n    return __builtin_amdgcn_workgroup_id_x();\n}\n",
    "nvptx": "uint get_group_x(void) {\n    return __nvvm_read_ptx_sreg_ctaid_x();\n}\n",
    # held out: written with the two above, run after the change
    "r600": "__constant void *args(void) {\n    return __builtin_r600_implicitarg_ptr();\n}\n",
}


@pytest.mark.parametrize("name", sorted(TARGET_BUILTINS))
def test_a_clang_targets_own_builtins_mark_a_file_built_for_that_target(name: str, tmp_path: Path) -> None:
    """libclc builds `amdgcn/`, `r600/`, `ptx-nvidiacl/` with `-target` of that GPU, where clang
    declares `__builtin_amdgcn_*`, `__builtin_r600_*`, `__nvvm_*`; the layer's spir64 build
    does not (libclc: 38 CL099)."""
    (tmp_path / "kernel.cl").write_text(TARGET_BUILTINS[name])
    assert _clang_reports(tmp_path) == []
