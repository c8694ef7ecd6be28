"""CL201/CL202/CL203 once per divergent cause in a function (issue 29, item 6): the barriers
that one work-item-dependent branch, loop or early exit leaves unreached in one function are
one decision (move that exit or make the branch uniform), so they are one warning at the first
barrier, the others its related locations. Two causes stay two warnings; each rule stays its own.

Cases in tests/rules/fixtures/barrier_once/{tune,heldout}, written before the change; the
held-out third (crc32 of the name % 3 == 0) was not looked at while writing the code. Each case
names the lines of its CL20x warnings (`// report: L ...`) and lines that must be among the
warnings' related locations (`// notes: L ...`). Run as a user runs it: `cllint check --format sarif`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).parent / "rules" / "fixtures" / "barrier_once").glob("*/*.cl"))
DIVERGENCE = {"CL201", "CL202", "CL203"}


def _header(text: str, key: str) -> set[int]:
    m = re.search(rf"^// {key}:(.*)$", text, re.M)
    return {int(x) for x in m.group(1).split()} if m else set()


def _sarif(path: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "sarif", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(r.stdout)["runs"][0]["results"]


def _line(loc: dict) -> int:
    return loc["physicalLocation"]["region"]["startLine"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_divergent_barriers_once_per_cause(path: Path) -> None:
    text = path.read_text()
    warnings = [r for r in _sarif(path) if r["ruleId"] in DIVERGENCE]
    lines = {_line(r["locations"][0]) for r in warnings}
    assert lines == _header(text, "report"), [(r["ruleId"], r["message"]["text"]) for r in warnings]
    related = {_line(n) for r in warnings for n in r.get("relatedLocations", [])}
    assert _header(text, "notes") <= related
