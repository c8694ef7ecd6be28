"""Kernel files written to be #included into C++ as one raw string literal (`R"(` ... `)"`),
as BLAS libraries ship them with the `.opencl` extension: found in folders, read between the
markers, every diagnostic on its own line of the file, nothing said about the markers."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

FIXTURE = Path(__file__).resolve().parents[1] / "grammar" / "fixtures" / "raw_string_kernel.opencl"


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def test_folder_search_finds_opencl_files_and_the_analyses_run(tmp_path: Path) -> None:
    (tmp_path / "kernels").mkdir()
    text = FIXTURE.read_text()
    (tmp_path / "kernels" / "xaxpy.opencl").write_text(text)
    r = check("--format", "json", "kernels", cwd=tmp_path)
    rows = json.loads(r.stdout)
    found = {(row["code"], row["line"], row["column"]) for row in rows}
    assert found == {
        ("CL201", line_of(text, "barrier("), 5),
        ("CL101", line_of(text, "__global float *p = tile"), 19),
    }, rows
    assert all(row["path"].endswith("xaxpy.opencl") for row in rows)


def test_markers_with_a_delimiter_and_trailing_comments_are_silent(tmp_path: Path) -> None:
    f = tmp_path / "k.opencl"
    f.write_text('/* generated */\nR"CLC(  // opens the literal\n'
                 "kernel void k(global int *o) { o[get_global_id(0)] = 1; }\n"
                 ')CLC"\n// closes it\n')
    r = check(str(f), cwd=tmp_path)
    assert r.returncode == 0, r.stdout
    assert r.stdout == ""


def test_a_delimiter_of_any_characters_cpp_allows(tmp_path: Path) -> None:
    # C++ lets a delimiter hold any visible character but space, parentheses, backslash
    # and quotes: miners wrap their kernels in `R"===(` ... `)==="`
    for delim in ("===", "--", "#ocl"):
        f = tmp_path / "k.cl"
        f.write_text(f'R"{delim}(\nkernel void k(global int *o) {{ o[get_global_id(0)] = 1; }}\n){delim}"\n')
        r = check(str(f), cwd=tmp_path)
        assert (r.returncode, r.stdout) == (0, ""), (delim, r.stdout)


def test_a_marker_that_is_not_at_the_end_of_the_file_stays_an_error(tmp_path: Path) -> None:
    f = tmp_path / "k.cl"
    # `)"` followed by more code is not the end of a raw string: the code after it is read,
    # and the stray marker is a syntax error on its own line
    f.write_text('R"(\nkernel void a(global int *o) { o[0] = 1; }\n)"\nkernel void b(global int *o) { o[0] = 2; }\n')
    r = check("--format", "json", str(f), cwd=tmp_path)
    rows = json.loads(r.stdout)
    assert [(row["code"], row["line"]) for row in rows] == [("CL001", 3)], rows
