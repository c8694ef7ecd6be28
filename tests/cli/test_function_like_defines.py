"""`-D 'NAME(a,b)=body'` on the command line (issue 29): a function-like macro the host passes,
read as the compiler reads `-D`: defined before the file, with its parameters."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

KERNEL = "__kernel void k(__global float *a) {\n    a[0] = MAXF(a[1], a[2]) + SCALE;\n}\n"


def check(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    (tmp_path / "k.cl").write_text(KERNEL)
    return subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", *args, "k.cl"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)


def codes(done: subprocess.CompletedProcess) -> list[str]:
    assert done.returncode in (0, 1), done.stderr
    return sorted(r["code"] for r in json.loads(done.stdout))


def test_a_function_like_define_is_a_macro(tmp_path: Path) -> None:
    assert codes(check(tmp_path)) == ["CL012", "CL012"]
    assert codes(check(tmp_path, "-D", "MAXF(a,b)=((a) > (b) ? (a) : (b))", "-D", "SCALE=2")) == []


def test_its_parameters_count(tmp_path: Path) -> None:
    # defined with one parameter, used with two: the compiler's "too many arguments"
    assert codes(check(tmp_path, "-D", "MAXF(a)=(a)", "-DSCALE")) == ["CL005"]


def test_a_malformed_one_is_named(tmp_path: Path) -> None:
    done = check(tmp_path, "-D", "MAXF(a,=x")
    assert done.returncode == 2 and "MAXF(a,=x" in done.stderr
