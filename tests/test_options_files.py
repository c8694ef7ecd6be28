"""Build options written in files beside the sources (issue 29, item 2a: "the build system's
flags for kernels where it names them"). Two conventions:

- a source's own options file, named as the source plus `.opt`, `.opts`, `.options` or
  `.flags` (VariOCL's test suite keeps OpenCV's kernels as `X.cl` with `X.cl.opt` holding
  `-D DOUBLE_SUPPORT -D OP_BINARY=&`, without which `src1 OP_BINARY src2` is no expression);
- clangd's `compile_flags.txt`, one flag a line, for the sources of its folder and below (the
  nearest wins), which editors already use for `.cl` files with clangd.

A file that holds anything but options is not read as options. Cases written before the code;
the held-out third (crc32 of the name % 3 == 0) was not looked at while writing it. Each names
its files and the reports (code, line) of the codes CL001, CL002, CL012 and CL101 expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import case_id, cllint_json, write_files

WATCHED = ("CL001", "CL002", "CL012", "CL101")
BINARY = b"""kernel void arith(global const uchar4 *a, global const uchar4 *b, global uchar4 *dst) {
    int i = get_global_id(0);
    uchar4 tmp = a[i] OP_BINARY b[i];
    dst[i] = tmp;
}
"""
GENERIC = b"""kernel void k(global int *a) {
    int *p = a;
    p[get_global_id(0)] = 1;
}
"""
BLOCKED = b"""kernel void copy(global const float *in, global float *out) {
    int i = get_global_id(0) * BLOCK;
    out[i] = in[i];
}
"""

CASES: dict[str, tuple[dict[str, bytes], set[tuple[str, str, int]]]] = {
    "opt_companion_defines_operator": (
        {"k/arith.cl": BINARY, "k/arith.cl.opt": b"-D DOUBLE_SUPPORT -D OP_BINARY=&\n"},
        set(),
    ),
    "opt_companion_std": (
        {"g.cl": GENERIC, "g.cl.opts": b"-cl-std=CL2.0\n"},
        set(),
    ),
    "opt_companion_other_source_not_affected": (
        {"k/arith.cl": BINARY, "k/arith.cl.opt": b"-D OP_BINARY=|\n", "k/other.cl": BINARY},
        {("k/other.cl", "CL001", 3)},
    ),
    "compile_flags_txt_defines": (
        {"compile_flags.txt": b"-xcl\n-cl-std=CL1.2\n-DBLOCK=16\n", "kernels/copy.cl": BLOCKED},
        set(),
    ),
    "compile_flags_txt_in_subfolder_only": (
        {"kernels/a/compile_flags.txt": b"-DBLOCK=16\n", "kernels/a/copy.cl": BLOCKED,
         "kernels/b/copy.cl": BLOCKED},
        {("kernels/b/copy.cl", "CL012", 2)},
    ),
    "opt_file_not_options": (
        {"copy.cl": BLOCKED, "copy.cl.flags": b"optimised for wide vectors, see README\n-DBLOCK=4\n"},
        {("copy.cl", "CL012", 2)},
    ),
    "compile_flags_include_dir": (
        {"compile_flags.txt": b"-Iinc\n", "inc/block.h": b"#define BLOCK 8\n",
         "src/copy.cl": b'#include "block.h"\n' + BLOCKED},
        set(),
    ),
    "nearest_compile_flags_wins": (
        {"compile_flags.txt": b"-cl-std=CL1.2\n", "gen/compile_flags.txt": b"-cl-std=CL2.0\n",
         "gen/g.cl": GENERIC, "g.cl": GENERIC},
        {("g.cl", "CL101", 2)},
    ),
}


def _reports(root: Path) -> set[tuple[str, str, int]]:
    return {(d["path"], d["code"], d["line"]) for d in cllint_json(root, ".") if d["code"] in WATCHED}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_options_file(name: str, tmp_path: Path) -> None:
    files, expected = CASES[name]
    write_files(tmp_path, files)
    assert _reports(tmp_path) == expected
