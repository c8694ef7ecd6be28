"""Shared by the fixture-folder tests of issue 29 (a case per file, `tune/` and `heldout/`):
run `cllint check` on a file as a user does, and clang-19 on it as the oracle."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

CLANG = shutil.which("clang-19")


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def reports(path: Path) -> list[dict]:
    """`cllint check --format json` of one file, every report."""
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(r.stdout)


def errors(path: Path) -> list[tuple[int, str]]:
    """(line, code) of each error-severity report on the file."""
    return [(d["line"], d["code"]) for d in reports(path) if d["severity"] == "error"]


def clang(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """clang-19's syntax check of the file as OpenCL C 2.0 (CLANG must not be None)."""
    return subprocess.run([str(CLANG), "-x", "cl", "-cl-std=CL2.0", "-fsyntax-only", *flags, str(path)],
                          capture_output=True, text=True, timeout=60)
