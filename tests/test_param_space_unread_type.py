"""CL106 (a value parameter qualified with an address space) only where the parameter's type
is read (issue 29): `#define KERNEL_MEM __global T *` with `T` passed by the host (`-DT=half`)
is a pointer whose element the file does not know; the parameter `KERNEL_MEM data` is a
`__global` pointer, which clang-19 accepts once `T` is defined. Seen in Huawei's bolt (a tune
project). Cases written before the change; held out by crc32(name) % 3 == 0, run once after.
Each case: the source and the CL106 lines wanted; clang-19 (`-DT=float -DTYPE=int`) is the
oracle for every case."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_lint import reports
from inline_cases import CLANG, case_id, clang_check

CASES: dict[str, tuple[str, list[int]]] = {
    "macro_pointer_host_element": (
        "#define KERNEL_MEM __global T *\n"
        "__kernel void fill(const int len, KERNEL_MEM data) {\n"
        "    int i = get_global_id(0);\n    if (i < len) data[i] = 0;\n}\n", []),
    "macro_pointer_known_element": (
        "#define KERNEL_MEM __global float *\n"
        "__kernel void fill(const int len, KERNEL_MEM data) { data[get_global_id(0)] = 0; }\n", []),
    "value_param_qualified": (
        "__kernel void k(__global int x, __global int *out) { out[0] = x; }\n", [1]),
    "helper_macro_pointer_host_element": (
        "#define MEM __global TYPE *\n"
        "void put(MEM p, int i) { p[i] = 1; }\n"
        "__kernel void k(MEM out) { put(out, get_global_id(0)); }\n", []),
    "macro_const_pointer_host_element": (
        "#define READ_ONLY_MEM __global const T *\n#define OUT_MEM __global T *\n"
        "__kernel void copy(READ_ONLY_MEM in, OUT_MEM out) { out[get_global_id(0)] = in[get_global_id(0)]; }\n",
        []),
    "macro_value_qualified_known": (
        "#define QINT __global int\n"
        "__kernel void k(QINT x, __global int *out) { out[0] = x; }\n", [2]),
    "kernel_mem_define_unknown_t": (
        "#if defined(USE_IMG)\n#define KERNEL_MEM __write_only image3d_t\n#else\n#define KERNEL_MEM __global T *\n#endif\n"
        "__kernel void zero(const int n, KERNEL_MEM data) {\n"
        "#if !defined(USE_IMG)\n    if (get_global_id(0) < n) data[get_global_id(0)] = 0;\n#endif\n}\n", []),
    "read_only_mem_unknown_t": (
        "#define READ_ONLY_KERNEL_MEM __global const T *\n"
        "__kernel void sum(READ_ONLY_KERNEL_MEM in, __global float *out) { out[0] = (float)in[0]; }\n", []),
    "two_macro_params_unknown": (
        "#define IN_MEM __global const T *\n#define OUT_MEM __global T *\n"
        "__kernel void scale(IN_MEM a, OUT_MEM b, const float s) {\n"
        "    b[get_global_id(0)] = a[get_global_id(0)] * (T)s;\n}\n", []),
}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_cl106_only_where_the_type_is_read(name: str, tmp_path: Path) -> None:
    source, wanted = CASES[name]
    path = tmp_path / "k.cl"
    path.write_text(source)
    assert sorted(d["line"] for d in reports(path) if d["code"] == "CL106") == wanted


@pytest.mark.skipif(CLANG is None, reason="clang-19 is the oracle")
@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_the_labels_are_clangs(name: str, tmp_path: Path) -> None:
    source, wanted = CASES[name]
    path = tmp_path / "k.cl"
    path.write_text(source)
    done = clang_check(path, "-DT=float", "-DTYPE=int")
    assert (done.returncode != 0) == bool(wanted), done.stderr
