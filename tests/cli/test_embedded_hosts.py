"""`cllint check` on Python and C/C++ host files: folders searched for pyopencl hosts only,
-D and suppression comments applied inside the string, positions in the host file."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

HOST = '''import pyopencl as cl

SRC = """
__kernel void k(__global int *o)
{
#ifndef SCALE
    o[0] = missing;
#endif
    o[1] = other;  // cllint: ignore[CL010]
}
"""
prg = cl.Program(None, SRC)
'''


def check(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def rows(r: subprocess.CompletedProcess) -> list[tuple[str, str, int, int]]:
    return [(row["path"], row["code"], row["line"], row["column"]) for row in json.loads(r.stdout)]


def test_folder_search_reads_pyopencl_hosts_only(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(HOST)
    (tmp_path / "plain.py").write_text(HOST.replace("import pyopencl as cl", "import json"))
    (tmp_path / "host.cpp").write_text('const char *s = R"(kernel void k(global int *o) { o[0] = bad; })";\n'
                                       "void f() { clCreateProgramWithSource(0, 1, &s, 0, 0); }\n")
    (tmp_path / "other.cpp").write_text('const char *s = "kernel void k() { nope; }";\n')
    # `-D` says how the kernels are built: `#ifndef SCALE` is then a decided arm
    r = check("--format", "json", "-D", "OTHER", ".", cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    assert rows(r) == [("app.py", "CL010", 7, 12), ("host.cpp", "CL010", 1, 58)]


def test_an_arm_the_host_picks_is_not_judged_without_options(tmp_path: Path) -> None:
    # nothing says whether the host passes -DSCALE: no report inside `#ifndef SCALE`
    (tmp_path / "app.py").write_text(HOST)
    r = check("--format", "json", "app.py", cwd=tmp_path)
    assert r.returncode == 0 and rows(r) == [], r.stdout


def test_defines_and_suppressions_apply_inside_the_string(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(HOST)
    r = check("--format", "json", "-D", "SCALE=2", "app.py", cwd=tmp_path)
    assert r.returncode == 0 and json.loads(r.stdout) == [], r.stdout


def test_text_output_shows_the_host_line(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(HOST)
    r = check("-D", "OTHER", "app.py", cwd=tmp_path)
    assert "app.py:7:12: CL010 use of undeclared identifier 'missing'" in r.stdout
    assert "    o[0] = missing;" in r.stdout


def test_configuration_ignores_apply(tmp_path: Path) -> None:
    (tmp_path / "app.py").write_text(HOST)
    (tmp_path / ".cllint.toml").write_text('ignore = ["CL010", "CL090"]\ndefine = ["OTHER"]\n')
    r = check("app.py", cwd=tmp_path)
    assert r.returncode == 0, r.stdout
