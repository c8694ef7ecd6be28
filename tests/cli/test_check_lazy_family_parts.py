"""Parts of the rule families that only some files reach are imported where they are used
(issue 32, session 17): the aligned-tile comparisons of the uniformity family (a barrier
under a condition), the narrow stores of an OpenCL C 1.0 target, programs whose kernels take
images, double constants written through macros, the struct-member, vector-literal and
binary-operand checks of the semantic family. A one-line kernel imports none of them; each
case below reaches one and reports what the tree before this change reported (labels: the
diagnostics of the session's start tree, clang-19 for the errors). Held-out cases were
labelled before the code changed and run once after."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from check_in_process import check_with_modules

LAZY = {
    "aligned": "cllint.analysis.uniformity.aligned",
    "byte_stores": "cllint.analysis.gating.byte_stores",
    "image_programs": "cllint.analysis.gating.image_programs",
    "macro_literals": "cllint.analysis.gating.macro_literals",
    "members": "cllint.analysis.semantic.members",
    "operands": "cllint.analysis.semantic.operands",
    # the functions CL301 groups a file's unguarded uses by (read at its first report)
    "function_ranges": "cllint.analysis.incremental",
}


ALIGNED = """__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(__global float *a) {
    __local float t[64];
    int lid = get_local_id(0);
    if (get_group_id(0) * 64 + lid < 128) {
        t[lid] = a[lid];
        barrier(CLK_LOCAL_MEM_FENCE);
        a[lid] = t[63 - lid];
    }
}
"""
NOT_ALIGNED = ALIGNED.replace("__attribute__((reqd_work_group_size(64, 1, 1))) ", "") \
    .replace("get_group_id(0) * 64 + lid < 128", "lid < 10")

# (source, options, the codes reported, the lazy part it reaches)
TUNE = [
    (ALIGNED, (), ["CL211"], "aligned"),  # no CL201: whole tiles of the work-group take the branch
    (NOT_ALIGNED, (), ["CL201"], "aligned"),
    ("__kernel void k(__global char *c) { c[get_global_id(0)] = 1; }\n", ("--target", "CL1.0"), ["CL302"],
     "byte_stores"),
    ("__kernel void k(read_only image2d_t img, sampler_t s, __global float4 *out) "
     "{ out[0] = read_imagef(img, s, (int2)(0, 0)); }\n", (), ["CL301"], "image_programs"),
    ("#define SCALE 2.5\n__kernel void k(__global float *a) { a[0] = a[0] * SCALE; }\n", ("--target", "CL1.2"),
     ["CL211", "CL308"], "macro_literals"),
    ("__kernel void k(__global float2 *a) { a[0] = (float2)(1.0f, 2.0f, 3.0f); }\n", (), ["CL015"], "members"),
    ("float f(float x) { double y = x; return (float)(y * 2.0); }\n"
     "__kernel void k(__global float *a) { a[get_global_id(0)] = f(a[get_global_id(0)]); }\n", (), ["CL301"],
     "function_ranges"),
    ("float g(float x) { double y = x; return (float)y; }\nfloat h(float x) { double z = x; return (float)z; }\n"
     "__kernel void k(__global float *a) { a[get_global_id(0)] = g(a[0]) + h(a[1]); }\n", (),
     ["CL211", "CL301"], "function_ranges"),  # one report per file since session 21, h's use its note
]
HELD_OUT = [
    ("__kernel void k(__global short *s) { s[get_global_id(0)] = 2; }\n", ("--target", "CL1.0"), ["CL302"],
     "byte_stores"),
    ("typedef struct { int x; float y; } P;\n__kernel void k(__global P *p) { p[get_global_id(0)].x = 1; }\n", (),
     [], "members"),
    ("#define HALF 0.5\n__kernel void k(__global float *a) { a[get_global_id(0)] *= HALF; }\n", ("--target", "CL1.2"),
     ["CL308"], "macro_literals"),
    ("double twice(double v) { return v * 2; }\n"
     "__kernel void k(__global float *a) { a[get_global_id(0)] = (float)twice(a[get_global_id(0)]); }\n", (),
     ["CL301"], "function_ranges"),
]


def _check(tmp_path: Path, source: str, *options: str) -> tuple[list[str], set[str]]:
    folder = tmp_path / "k"
    folder.mkdir(exist_ok=True)
    path = folder / "k.cl"
    path.write_text(source)
    shown, modules = check_with_modules(tmp_path, "--format", "json", *options, str(path))
    return sorted(d["code"] for d in json.loads(shown)), modules


def test_a_one_line_kernel_imports_none_of_them(tmp_path: Path) -> None:
    codes, modules = _check(tmp_path, "__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n")
    assert codes == []
    assert modules.isdisjoint(LAZY.values()), sorted(modules & set(LAZY.values()))


@pytest.mark.parametrize("source, options, expected, part", TUNE + HELD_OUT)
def test_a_file_reaching_a_part_imports_it_and_reports_as_before(tmp_path: Path, source: str, options: tuple,
                                                                 expected: list[str], part: str) -> None:
    codes, modules = _check(tmp_path, source, *options)
    assert codes == expected
    assert LAZY[part] in modules


def test_the_byte_store_extension_spelled_in_the_features_rules_is_the_gating_tables() -> None:
    from cllint.analysis.gating.byte_stores import BYTE_ADDRESSABLE
    from cllint.analysis.rules.features import BYTE_STORE

    assert BYTE_STORE == BYTE_ADDRESSABLE[0][0]
