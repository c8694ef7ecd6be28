"""A macro the program defines that switches an extension on (issue 29: build options as hosts
pass them). OpenCV's kernels open with `#if defined (DOUBLE_SUPPORT)` / `#pragma OPENCL EXTENSION
cl_khr_fp64:enable` / `#endif` and use `double` under `#ifdef DOUBLE_SUPPORT`; its host passes
`-D DOUBLE_SUPPORT` only for a device with doubles. The file ties the macro to the extension, so
a build that defines it has decided the device has the extension: no CL301 for its uses. A
macro no pragma ties to the extension, or an unconditional pragma, decides nothing.

Cases written before the code; the held-out third (crc32 of the name % 3 == 0) was not looked
at while writing it. Each gives files, command-line options and the CL301 lines expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import case_id, cllint_json, write_files

SWITCH = b"#if defined (DOUBLE_SUPPORT)\n#pragma OPENCL EXTENSION cl_khr_fp64:enable\n#endif\n"
ARMED = b"""kernel void k(global float *out) {
#ifdef DOUBLE_SUPPORT
    double v = 0.5;
    out[get_global_id(0)] = (float)(v * 2.0);
#else
    out[get_global_id(0)] = 1.0f;
#endif
}
"""

CASES: dict[str, tuple[dict[str, bytes], tuple[str, ...], set[tuple[str, int]]]] = {
    "define_switches_fp64_on": ({"k.cl": SWITCH + ARMED}, ("-D", "DOUBLE_SUPPORT"), set()),
    "no_define_double_arm_silent": ({"k.cl": SWITCH + ARMED}, (), set()),
    "define_without_pragma_still_reported": (
        {"k.cl": b"kernel void k(global float *out) {\n#ifdef USE_DOUBLE\n    double v = 0.5;\n"
                 b"    out[get_global_id(0)] = (float)(v * 2.0);\n#endif\n}\n"},
        ("-D", "USE_DOUBLE"), {("k.cl", 3)}),
    "unconditional_pragma_still_reported": (
        {"k.cl": b"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nkernel void k(global float *out) {\n"
                 b"    double v = 0.5;\n    out[get_global_id(0)] = (float)(v * 2.0);\n}\n"},
        (), {("k.cl", 3)}),
    "define_switches_fp16_on": (
        {"k.cl": b"#ifdef HALF_SUPPORT\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#endif\n"
                 b"kernel void k(global float *out) {\n    half h = (half)1.0f;\n"
                 b"    out[get_global_id(0)] = (float)h * 2.0f;\n}\n"},
        ("-D", "HALF_SUPPORT"), set()),
    "switch_defined_by_other_name_reported": (
        {"k.cl": SWITCH + b"kernel void k(global float *out) {\n#ifdef OTHER\n    double v = 0.5;\n"
                          b"    out[get_global_id(0)] = (float)(v * 2.0);\n#endif\n}\n"},
        ("-D", "OTHER"), {("k.cl", 6)}),
    "switch_with_defined_and_version": (
        {"k.cl": b"#if defined(DOUBLE_SUPPORT) && __OPENCL_VERSION__ >= 120\n"
                 b"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n" + ARMED},
        ("-D", "DOUBLE_SUPPORT"), set()),
    "ifdef_switch_program_options_file": (
        {"k.cl": b"#ifdef DOUBLE_SUPPORT\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#endif\n" + ARMED,
         "k.cl.opt": b"-D DOUBLE_SUPPORT\n"},
        (), set()),
    "switch_in_header_defined": (
        {"fp.h": SWITCH, "k.cl": b'#include "fp.h"\n' + ARMED}, ("-D", "DOUBLE_SUPPORT"), set()),
    "kernel_takes_double_switch_on": (
        {"k.cl": SWITCH + b"kernel void k(global double *d) {\n    d[get_global_id(0)] *= 2.0;\n}\n"},
        ("-D", "DOUBLE_SUPPORT"), set()),
}


def _cl301(root: Path, options: tuple[str, ...]) -> set[tuple[str, int]]:
    return {(d["path"], d["line"]) for d in cllint_json(root, *options, ".") if d["code"] == "CL301"}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_feature_switch_macro(name: str, tmp_path: Path) -> None:
    files, options, expected = CASES[name]
    write_files(tmp_path, files)
    assert _cl301(tmp_path, options) == expected
