"""CL603-CL605 against the real pyopencl on PoCL: every call cllint reports raises there, with
the error the rule's documentation names, and the calls it leaves alone run."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.embedded import lint_host
from cllint.analysis.lint import LintOptions

import pocl_host

HOST = Path(__file__).parent / "pocl" / "host_args_app.py"
MODES = {  # mode -> (code cllint reports on its line, what pyopencl raises)
    "pyfloat": ("CL603", "Kernel.set_arg failed: INVALID_VALUE"),
    "pyint": ("CL603", "Kernel.set_arg failed: INVALID_VALUE"),
    "width": ("CL603", "INVALID_ARG_SIZE"),
    "narrow": ("CL603", "INVALID_ARG_SIZE"),
    "nonescalar": ("CL603", "INVALID_ARG_SIZE"),
    "ndarray": ("CL604", "INVALID_ARG_SIZE"),
    "pyintbuffer": ("CL604", "Kernel.set_arg failed: INVALID_VALUE"),
    "localnone": ("CL604", "INVALID_ARG_VALUE"),
    "dims": ("CL605", "global/local work sizes have differing dimensions"),
    "fewerdims": ("CL605", "global/local work sizes have differing dimensions"),
    "constarray": ("CL604", "INVALID_ARG_SIZE"),
}

pytest.importorskip("pyopencl")
pytestmark = pytest.mark.device


def run_host(mode: str) -> subprocess.CompletedProcess:
    return pocl_host.run_host(HOST, mode)


def test_reports_are_the_marked_calls() -> None:
    source = HOST.read_bytes()
    lines = source.decode().splitlines()
    reported = {}
    for d in lint_host(str(HOST), source, LintOptions()):
        if d.code.startswith("CL6"):
            line = lines[source.count(b"\n", 0, d.span.start)]
            m = re.search(r"# mode: (\w+)$", line)
            assert m is not None, (d, line)
            reported[m.group(1)] = d.code
    assert reported == {mode: code for mode, (code, _) in MODES.items()}


def test_the_calls_left_alone_run() -> None:
    r = run_host("quiet")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ran"


@pytest.mark.parametrize("mode", sorted(MODES))
def test_each_report_is_confirmed_by_pyopencl_raising(mode: str) -> None:
    r = run_host(mode)
    assert r.returncode != 0
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("pyopencl._cl.LogicError") and MODES[mode][1] in last, r.stderr
