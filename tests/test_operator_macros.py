"""An object-like macro that stands for an operator (issue 29: macro handling on valid code):
OpenCV's arithmetic kernels write `uchar4 tmp = src1 OP_BINARY src2;` and are built with
`-D OP_BINARY=&` (or `|`, `^`); a file's own `#define ACC +=` reads the same. The parser sees
two operands side by side; the compiler sees the operator. No syntax error (CL001) there. A
macro that expands to a word, or a name nothing defines, between two operands stays an error.

Cases written before the code; the held-out third (crc32 of the name % 3 == 0) was not looked
at while writing it. Each gives a source, the command-line options, and the CL001 lines expected.
Checked with clang-19 too: its verdict (errors or none) must agree with the expectation."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import CLANG, case_id, clang_check, cllint_json

BODY = b"""kernel void arith(global const uchar4 *a, global const uchar4 *b, global uchar4 *dst) {
    int i = get_global_id(0);
    uchar4 tmp = a[i] OP_BINARY b[i];
    dst[i] = tmp;
}
"""

CASES: dict[str, tuple[bytes, tuple[str, ...], set[int]]] = {
    "operator_macro_in_file": (b"#define OP_BINARY &\n" + BODY, (), set()),
    "undefined_operator_word_reported": (BODY, (), {3}),
    "two_char_operator_macro": (
        b"#define AT_MOST <=\nkernel void k(global const int *a, global int *out, int n) {\n"
        b"    int i = get_global_id(0);\n    out[i] = (a[i] AT_MOST n) ? a[i] : n;\n}\n", (), set()),
    "word_macro_between_operands_reported": (b"#define OP_BINARY maxval\n" + BODY, (), {4}),
    "compound_assign_macro": (
        b"#define ACC +=\nkernel void k(global const float *a, global float *out) {\n"
        b"    float sum = 0.0f;\n    for (int j = 0; j < 4; ++j)\n        sum ACC a[j];\n"
        b"    out[get_global_id(0)] = sum;\n}\n", (), set()),
    "operator_macro_from_command_line": (BODY, ("-D", "OP_BINARY=^"), set()),
}


def _cl001_lines(path: Path, options: tuple[str, ...]) -> set[int]:
    return {d["line"] for d in cllint_json(path.parent, *options, str(path)) if d["code"] == "CL001"}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_operator_macro(name: str, tmp_path: Path) -> None:
    source, options, expected = CASES[name]
    path = tmp_path / "k.cl"
    path.write_bytes(source)
    assert _cl001_lines(path, options) == expected
    if CLANG is not None:
        assert (clang_check(path, *options).returncode != 0) == bool(expected)
