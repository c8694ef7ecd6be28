"""Shapes of host code and macros met in real projects (issue 29, session 12: MNN, TNN, OpenMM),
each a small workspace checked as a user runs `cllint check .` in it.

Every case folder holds the workspace, `EXPECT` (the reports wanted, `file code line` a line;
empty: none) and `BUILD` (how the host builds the program: `options:` and `sources:` in
order). The label is clang-19's: the program built that way fails to compile exactly where a
report is expected. `heldout/` was written with `tune/` and not looked at while the checks
were written; its figures are reported apart."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "host_forms"
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())
CLANG = shutil.which("clang-19")


def expected(case: Path) -> list[tuple[str, str, int]]:
    out = []
    for line in (case / "EXPECT").read_text().splitlines():
        if line.strip():
            name, code, at = line.split()
            out.append((name, code, int(at)))
    return sorted(out)


def build(case: Path) -> tuple[list[str], list[str]]:
    fields = dict(line.split(":", 1) for line in (case / "BUILD").read_text().splitlines() if ":" in line)
    return shlex.split(fields.get("options", "")), fields.get("sources", "").split()


def reports(case: Path) -> list[tuple[str, str, int]]:
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", "."], cwd=case, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(done.stdout)
                  if r["severity"] != "info")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    options, sources = build(case)
    program = tmp_path / "program.cl"
    program.write_bytes(b"".join((case / s).read_bytes() for s in sources))
    done = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-fsyntax-only",
                           *options, str(program)], capture_output=True, text=True, timeout=60)
    assert (done.returncode != 0) == bool(expected(case)), done.stderr


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
