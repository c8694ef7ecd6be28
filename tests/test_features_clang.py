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


# Built-in calls whose overloads differ in what they need: clang rejects the call (not the
# name) without the extension or feature, and accepts the same call on `int`. Each case:
# (kernel, the same kernel on a type every overload set has, clang's flags with and without
# the feature, cllint's overrides of CL3.0-all with and without it; CL3.0-all has every extension
# clang-19's spir64 target defines since issue 30, so "without" removes it).
SPIR = ["-target", "spir64"]
HOST = ["-target", "x86_64-unknown-linux-gnu"]  # its header declares only what the macros say
SUBGROUPS = ["-Xclang", "-cl-ext=+cl_khr_subgroups,+__opencl_c_subgroups"]
OVERLOAD_CASES = {
    "atom_add_long": ("kernel void k(global long *p) { atom_add(p, 1L); }",
                      "kernel void k(global int *p) { atom_add(p, 1); }",
                      SPIR, SPIR + ["-Xclang", "-cl-ext=-cl_khr_int64_base_atomics"], "", "-cl_khr_int64_base_atomics"),
    "atom_max_long": ("kernel void k(local long *p) { atom_max(p, 1L); }",
                      "kernel void k(local int *p) { atom_max(p, 1); }",
                      SPIR, SPIR + ["-Xclang", "-cl-ext=-cl_khr_int64_extended_atomics"], "",
                      "-cl_khr_int64_extended_atomics"),
    "atomic_explicit_without_scope": (
        "kernel void k(global atomic_int *a) { atomic_fetch_add_explicit(a, 1, memory_order_relaxed); }",
        "kernel void k(global atomic_int *a) "
        "{ atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group); }",
        SPIR, SPIR + ["-D__undef___opencl_c_atomic_scope_device"], "", "-__opencl_c_atomic_scope_device"),
    "sub_group_broadcast_char2": (
        "kernel void k(global char2 *o, char2 c) { o[0] = sub_group_broadcast(c, 0); }",
        "kernel void k(global int *o, int c) { o[0] = sub_group_broadcast(c, 0); }",
        HOST + SUBGROUPS + ["-Dcl_khr_subgroup_extended_types=1"], HOST + SUBGROUPS,
        "+cl_khr_subgroups,+cl_khr_subgroup_extended_types", "-cl_khr_subgroup_extended_types"),
    "dot_char4": ("kernel void k(global int *o, char4 a) { o[0] = dot(a, a); }",
                  "kernel void k(global float *o, float4 a) { o[0] = dot(a, a); }",
                  HOST + ["-D__opencl_c_integer_dot_product_input_4x8bit=1"], HOST, "", "-cl_khr_integer_dot_product"),
}


def clang_accepts(path: Path, flags: list[str]) -> bool:
    cmd = [CLANG, "-x", "cl", *flags, "-cl-std=CL3.0", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           str(path)]
    return subprocess.run(cmd, capture_output=True, timeout=60).returncode == 0


@pytest.mark.parametrize("name", sorted(OVERLOAD_CASES))
def test_clang_oracle_by_overload(name: str, tmp_path: Path) -> None:
    text, plain, with_flags, without_flags, having, lacking_it = OVERLOAD_CASES[name]
    path, plain_path = tmp_path / f"{name}.cl", tmp_path / f"{name}_plain.cl"
    path.write_text(text + "\n")
    plain_path.write_text(plain + "\n")
    assert clang_accepts(path, with_flags), "clang rejects the kernel with the feature"
    assert not clang_accepts(path, without_flags), "clang does not gate this call"
    assert clang_accepts(plain_path, without_flags), "clang gates the plain call too"
    full, lacking = (Target.preset("CL3.0-all").apply_overrides(o) if o else Target.preset("CL3.0-all")
                     for o in (having, lacking_it))
    assert codes(path.read_bytes(), full, "target") == set()
    assert codes(path.read_bytes(), lacking, "target") == {"CL302"}
    assert codes(plain_path.read_bytes(), lacking, "target") == set()
    assert codes(path.read_bytes(), Target.preset("CL1.2"), "portability") == {"CL301"}


def test_clang_oracle_a_plainer_overload_does(tmp_path: Path) -> None:
    """`sub_group_reduce_add` on `char` without cl_khr_subgroup_extended_types: clang picks
    the `int` overload (a promotion), so the call needs the sub-groups only."""
    path = tmp_path / "reduce_char.cl"
    path.write_text("kernel void k(global int *o, char c) { o[0] = sub_group_reduce_add(c); }\n")
    assert clang_accepts(path, HOST + SUBGROUPS)
    assert codes(path.read_bytes(), Target.preset("CL3.0-all").apply_overrides("+cl_khr_subgroups"), "target") == set()
