"""A word alone at file scope where the host puts code (issue 29, items 2 and 3): xrt's `OE.cl`
has lines `MY_LOCAL_Z`, `MY_LOCAL_N` that its Python host replaces (`src.replace('MY_LOCAL_Z',
self.cl_local_z)`) with the surface's functions, which the kernels then call. Such a line may
declare anything, as an include the linter cannot read may: no name of the file is reported as
undeclared (CL010/CL011) there. A word the file defines, a word inside a body, a word before a
function body (an attribute macro) and a lower-case word are no placeholders.

Cases written before the code; the held-out third (crc32 of the name % 3 == 0) was not looked
at while writing it. Each names its files and the (code, name) undeclared reports expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import case_id, cllint_json, write_files

KERNEL_CALLS = b"""
kernel void trace(global float *out) {
    int i = get_global_id(0);
    out[i] = local_z(out[i], 2.0f);
}
"""

CASES: dict[str, tuple[dict[str, bytes], set[tuple[str, str]]]] = {
    "placeholder_line_then_calls": (
        {"oe.cl": b"__constant bool isParametric = false;\n\nMY_LOCAL_Z\n\nMY_LOCAL_N\n" + KERNEL_CALLS},
        set(),
    ),
    "placeholder_with_semicolon_reported": (
        {"oe.cl": b"float scale(float x) { return 2.0f * x; }\n\nMY_LOCAL_Z;\n" + KERNEL_CALLS},
        {("CL011", "local_z")},
    ),
    "defined_word_is_no_placeholder": (
        {"oe.cl": b"#define MY_LOCAL_Z float local_y(float a, float b) { return a * b; }\n\nMY_LOCAL_Z\n"
                  + KERNEL_CALLS},
        {("CL011", "local_z")},
    ),
    "statement_word_in_body_is_no_placeholder": (
        {"oe.cl": b"kernel void trace(global float *out) {\n    int i = get_global_id(0);\n    PREPARE_RAY\n"
                  b"    out[i] = local_z(out[i], 2.0f);\n}\n"},
        {("CL011", "local_z")},
    ),
    "lowercase_word_is_no_placeholder": (
        {"oe.cl": b"float scale(float x) { return 2.0f * x; }\n\nmy_local_z\n" + KERNEL_CALLS},
        {("CL011", "local_z")},
    ),
    "attribute_before_body_is_no_placeholder": (
        {"oe.cl": b"kernel void trace(global float *out)\nKERNEL_ATTRIBUTES\n{\n    int i = get_global_id(0);\n"
                  b"    out[i] = local_z(out[i], 2.0f);\n}\n"},
        {("CL011", "local_z")},
    ),
    "host_replaced_placeholder_project": (
        {"kernels/oe.cl": b"float scale(float x) { return 2.0f * x; }\n\nMY_SURFACE\n" + KERNEL_CALLS,
         "host.py": b"import pyopencl as cl\n\ndef build(ctx, surface):\n"
                    b"    src = open('kernels/oe.cl').read()\n"
                    b"    src = src.replace('MY_SURFACE', surface)\n"
                    b"    return cl.Program(ctx, src).build()\n"},
        set(),
    ),
    "placeholder_after_struct": (
        {"oe.cl": b"typedef struct {\n    float x, y;\n} pair_t;\n\nEXTRA_DECLARATIONS\n\n"
                  b"kernel void k(global pair_t *p) {\n    p[0].x = helper_x(p[0]);\n}\n"},
        set(),
    ),
    "placeholder_hides_identifiers_too": (
        {"oe.cl": b"GENERATED_TABLES\n\nkernel void k(global float *out) {\n"
                  b"    out[get_global_id(0)] = coeffs[get_global_id(0) % 4];\n}\n"},
        set(),
    ),
}


def _undeclared(root: Path) -> set[tuple[str, str]]:
    return {(d["code"], d["message"].split("'")[1]) for d in cllint_json(root, ".") if d["code"] in ("CL010", "CL011")}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_file_scope_placeholder(name: str, tmp_path: Path) -> None:
    files, expected = CASES[name]
    write_files(tmp_path, files)
    assert _undeclared(tmp_path) == expected
