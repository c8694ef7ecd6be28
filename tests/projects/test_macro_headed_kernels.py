"""Kernels whose head is a function-like macro (`KERNEL(64) name(P(T2) out, CP(T2) in) {...}`,
gpuowl's `#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void`), their
parameters written with type macros or typedef names: the compiler reads the expansion, so the
syntax is judged on it (CL001). Labels from clang-19 (`-cl-std=CL3.0 -fsyntax-only`). Written
before the change; the held-out third was run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest

from test_project_model import check, rows, write

TUNE = [
    ('#define P(x) global x * restrict\n#define CP(x) const P(x)\n#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\nKERNEL(64) copy(P(int) out, CP(int) in) {\n  out[get_global_id(0)] = in[get_global_id(0)];\n}\n', False),
    ('typedef int2 W2;\n#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\nKERNEL(64) fill(global W2* o) {\n  o[get_global_id(0)] = (W2)(1, 2);\n}\n', False),
    ('#define G 32\n#define P(x) global x *\n#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\nKERNEL(G * 2) twice(P(float) o, P(float) i, float s) {\n  o[get_global_id(0)] = i[get_global_id(0)] * s;\n}\n', False),
    ('#define P(x) global x *\n#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\nKERNEL(64) broken(P(int) o, P(int) i) {\n  o[0] = i[0]\n}\n', True),
]

HELD_OUT = [
    ('#define KERNEL(x) __kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\n#define GP(x) __global x *\nKERNEL(128) scale(GP(float) out,\n                  GP(const float) in, float s) {\n  size_t i = get_global_id(0);\n  out[i] = in[i] * s;\n}\n', False),
    ('#define P(x) global x *\n#define KERNEL(x) kernel __attribute__((reqd_work_group_size(x, 1, 1))) void\nKERNEL(64) k(P(int) o,, int n) {\n  o[0] = n;\n}\n', True),
]


def _syntax_errors(root: Path, text: str) -> int:
    write(root, {"k.cl": text})
    return sum(1 for _, code, _ in rows(check("k.cl", cwd=root)) if code == "CL001")


@pytest.mark.parametrize(("text", "broken"), TUNE)
def test_macro_headed_kernels_tune(tmp_path: Path, text: str, broken: bool) -> None:
    assert (_syntax_errors(tmp_path, text) > 0) is broken


@pytest.mark.parametrize(("text", "broken"), HELD_OUT)
def test_macro_headed_kernels_held_out(tmp_path: Path, text: str, broken: bool) -> None:
    assert (_syntax_errors(tmp_path, text) > 0) is broken
