"""The real pyopencl on PoCL: the kernel cllint extracts from a Python host is the source the
host builds (byte for byte), and each CL6xx report is a call pyopencl rejects."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.embedded import find_kernels, lint_host
from cllint.analysis.lint import LintOptions

import pocl_host

HOST = Path(__file__).parent / "pocl" / "host_app.py"

pytest.importorskip("pyopencl")
pytestmark = pytest.mark.device


def run_host(mode: str) -> subprocess.CompletedProcess:
    return pocl_host.run_host(HOST, mode)


def host_reports() -> dict[int, tuple[str, str]]:
    source = HOST.read_bytes()
    out = {}
    for d in lint_host(str(HOST), source, LintOptions()):
        line = source.count(b"\n", 0, d.span.start) + 1
        out[line] = (d.code, d.message)
    return out


def test_the_extracted_kernel_is_the_source_pyopencl_builds() -> None:
    r = run_host("ok")
    assert r.returncode == 0, r.stderr
    built = json.loads(r.stdout)
    assert built["out"] == [1.0 + 2 * k for k in range(16)]  # it ran
    kernels = find_kernels(str(HOST), HOST.read_bytes())
    assert [k.origin for k in kernels] == ["program", "elementwise"]
    assert kernels[0].source.decode() == built["source"]
    # the library's kernel and ours hold the same user operation, with 'i' and 'n' declared
    operation = "v[i] = 2 * v[i] + (float)n"
    assert operation in built["elementwise"] and operation in kernels[1].source.decode()


def test_only_the_calls_pyopencl_rejects_are_reported() -> None:
    text = HOST.read_text().splitlines()
    reports = host_reports()
    lines = {code: line for line, (code, _) in reports.items()}
    assert sorted(code for code, _ in reports.values()) == ["CL601", "CL601", "CL602"], reports
    assert "prg.axpy(queue, (16,), None, y, x)" in text[min(k for k, v in reports.items() if v[0] == "CL601") - 1]
    assert "axpyy" in text[lines["CL602"] - 1]
    assert ("CL601", "too few arguments to kernel 'axpy': expected 3, have 2") in reports.values()
    assert ("CL601", "too many arguments to kernel 'axpy': expected 3, have 8") in reports.values()


@pytest.mark.parametrize(("mode", "error"), [
    ("count", "TypeError"), ("many", "TypeError"), ("name", "AttributeError"),
])
def test_each_report_is_confirmed_by_pyopencl_raising(mode: str, error: str) -> None:
    r = run_host(mode)
    assert r.returncode != 0
    assert r.stderr.strip().splitlines()[-1].startswith(error), r.stderr
