"""CL301/CL302 against clang-19 as the oracle, where clang gates the feature.

For each kernel: clang accepts it for OpenCL C 3.0 with every feature (spir64) and rejects it
with `-cl-ext=-<feature>`; cllint must then report CL302 in target mode without the feature,
nothing in target mode with it, and CL301 in portability mode (the kernel is unguarded).
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

CLANG = shutil.which("clang-19")
pytestmark = pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")

IMAGES_OFF = "-__opencl_c_images,-__opencl_c_3d_image_writes,-cl_khr_3d_image_writes,-__opencl_c_read_write_images"
FP16 = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
CASES = {
    "double": ("kernel void k(global float *o) { double x = o[0]; o[1] = x; }", "-__opencl_c_fp64,-cl_khr_fp64"),
    "half_variable": (FP16 + "kernel void k(global float *o) { half h = 1; o[0] = h; }", "-cl_khr_fp16"),
    "half_literal": (FP16 + "kernel void k(global float *o) { o[0] = 1.0h; }", "-cl_khr_fp16"),
    "image": ("kernel void k(read_only image2d_t i, global float4 *o) { o[0] = read_imagef(i, (int2)(0)); }",
              IMAGES_OFF),
    "read_write_image": ("kernel void k(read_write image2d_t i) { }", "-__opencl_c_read_write_images"),
    "image3d_write": ("kernel void k(write_only image3d_t i) { write_imagef(i, (int4)(0), (float4)(0)); }",
                      "-__opencl_c_3d_image_writes,-cl_khr_3d_image_writes"),
    "generic": ("kernel void k(global int *o) { generic int *p = o; *p = 1; }",
                "-__opencl_c_generic_address_space,-__opencl_c_pipes,-__opencl_c_device_enqueue"),
    "pipe": ("kernel void k(read_only pipe int p) { }", "-__opencl_c_pipes"),
    "program_scope_global": ("global int g; kernel void k(global int *o) { o[0] = g; }",
                             "-__opencl_c_program_scope_global_variables,-__opencl_c_device_enqueue"),
    "queue_t": ("kernel void k(global int *o) { queue_t q = get_default_queue(); }", "-__opencl_c_device_enqueue"),
    "block": ("kernel void k(global int *o) { int (^b)(int) = ^(int x) { return x + 1; }; o[0] = b(1); }",
              "-__opencl_c_device_enqueue"),
}


def clang_ok(path: Path, ext: str | None) -> bool:
    cmd = [CLANG, "-x", "cl", "-target", "spir64", "-cl-std=CL3.0", "-Xclang", "-finclude-default-header",
           "-fsyntax-only", str(path)]
    if ext:
        cmd[1:1] = ["-Xclang", f"-cl-ext={ext}"]
    return subprocess.run(cmd, capture_output=True, timeout=60).returncode == 0


def codes(source: bytes, target: Target, mode: str) -> set[str]:
    ctx = RuleContext("k.cl", source, parse(source), target, options={"mode": mode})
    rules = [r for c, r in all_rules().items() if c in ("CL301", "CL302")]
    return {d.code for d in run_rules(ctx, rules)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_oracle(name: str, tmp_path: Path) -> None:
    text, ext = CASES[name]
    path = tmp_path / f"{name}.cl"
    path.write_text(text + "\n")
    assert clang_ok(path, None), "clang rejects the kernel with every feature"
    assert not clang_ok(path, ext), "clang does not gate this case"
    source = path.read_bytes()
    full = Target.preset("CL3.0-all")
    lacking = full.apply_overrides(ext)
    assert codes(source, full, "target") == set()
    assert codes(source, lacking, "target") == {"CL302"}
    assert codes(source, Target.preset("CL1.2"), "portability") == {"CL301"}
