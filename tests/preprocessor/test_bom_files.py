"""A file saved with a UTF-8 byte order mark (EF BB BF, as Windows editors write it): its first
line's directive is a directive, as clang-19 reads it, so the mark changes no report. Every case
compiles cleanly with clang-19 (`-cl-std=CL3.0`), with and without the mark. `heldout` scored
once after the change: `pragma_first` had been labelled "no report", but its `half` is CL301's
unguarded use with or without the mark (the rule's portability warning); the test compares the
reports with and without the mark, which is what the change claims."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source

BOM = b"\xef\xbb\xbf"
CASES = {
    "tune/guard": b"#ifndef SCALE\n#define SCALE 2\n#endif\nkernel void k(global int *o) { o[0] = SCALE; }\n",
    "tune/define_first": b"#define TILE 8\nkernel void k(global int *o) { o[0] = TILE; }\n",
    "tune/if_zero": b"#if 0\nthis is not code\n#endif\nkernel void k(global int *o) { o[0] = 1; }\n",
    "heldout/pragma_first": b"#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
                            b"kernel void k(global half *o) { o[0] = (half)1.0f; }\n",
    "heldout/function_macro": b"#define TWICE(x) ((x) * 2)\nkernel void k(global int *o) { o[0] = TWICE(o[1]); }\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_first_line_directive_after_a_byte_order_mark(name: str, tmp_path: Path) -> None:
    def reports(src: bytes) -> list[tuple[str, str]]:
        return [(d.code, d.message) for d in lint_source(str(tmp_path / "k.cl"), src, LintOptions())]

    plain = reports(CASES[name])
    assert not any(code in ("CL001", "CL003", "CL010", "CL012") for code, _ in plain)
    assert reports(BOM + CASES[name]) == plain


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_accepts(name: str, tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_bytes(BOM + CASES[name])
    done = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL3.0", "-fsyntax-only", str(tmp_path / "k.cl")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_the_project_index_reads_the_first_line() -> None:
    from cllint.project.index import index_source

    assert "TILE" in index_source(BOM + CASES["tune/define_first"]).macros
