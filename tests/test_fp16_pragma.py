"""CL309 against clang-19: which uses of `half` need `#pragma OPENCL EXTENSION cl_khr_fp16 : enable`.

Each case is a kernel for OpenCL C 3.0 with every feature (cl_khr_fp16 supported, pragma
absent) and whether clang rejects it; CL309 must report exactly the rejected ones.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.target import Target
from cllint.grammar import parse

CLANG = shutil.which("clang-19")
CASES = {  # name -> (kernel, needs the pragma)
    "variable": ("kernel void k(global float *o) { half h = 1; o[0] = h; }", True),
    "array": ("kernel void k(global float *o) { half a[2]; o[0] = 0; }", True),
    "parameter": ("void f(half x) {} kernel void k(global float *o) { o[0] = 0; }", True),
    "return": ("half f(float x); kernel void k(global float *o) { o[0] = 0; }", True),
    "cast": ("kernel void k(global float *o) { o[0] = (float)(half)o[1]; }", True),
    "literal": ("kernel void k(global float *o) { o[0] = 1.0h; }", True),
    "pointer": ("kernel void k(global half *h, global float *o) { o[0] = vload_half(0, h); }", False),
    "pointer_cast": ("kernel void k(global half *h) { vstore_half(1.0f, 0, (global half *)h + 1); }", False),
    "sizeof": ("kernel void k(global int *o) { o[0] = sizeof(half); }", False),
    "field": ("struct S { half a; }; kernel void k(global struct S *s) { }", False),
    "typedef": ("typedef half h_t; kernel void k(global h_t *p) { }", False),
    "vector": ("kernel void k(global half *h, global float4 *o) { half4 v = convert_half4(vload_half4(0, h)); "
               "o[0] = convert_float4(v); }", False),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_cl309_matches_clang(name: str, tmp_path: Path) -> None:
    text, needs = CASES[name]
    if CLANG is not None:
        path = tmp_path / "k.cl"
        path.write_text(text + "\n")
        cmd = [CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-Xclang", "-finclude-default-header",
               "-Xclang", "-cl-ext=+all", "-fsyntax-only", str(path)]
        rejected = subprocess.run(cmd, capture_output=True, timeout=60).returncode != 0
        assert rejected == needs, "the label disagrees with clang-19"
    source = (text + "\n").encode()
    options = LintOptions(target=Target.preset("CL3.0-all"), mode="target", select=("CL309",))
    got = [d.code for d in lint_tree("k.cl", source, parse(source), options)]
    assert got == (["CL309"] if needs else [])
