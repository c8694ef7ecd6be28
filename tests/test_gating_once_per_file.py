"""CL301 once per need in a file (issue 29, item 6): a file using images unguarded in many
functions (a prototype and its definition being one function) is one decision, guard the file
or have the host require the feature, so it is one warning, the other functions' uses its
related locations. Cases in tests/rules/fixtures/gating_once/{tune,heldout}, written before
the change; the held-out third (crc32 of the name % 3 == 0) was not looked at while writing it.

Each case names the lines of its CL301 warnings (`// report: L ...`), lines that must be among
the warnings' related locations (`// notes: L ...`), and `// fix: yes` where the one report
keeps its wrap fix. Run as a user runs it: `cllint check --format sarif`."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

CASES = sorted((Path(__file__).parent / "rules" / "fixtures" / "gating_once").glob("*/*.cl"))


def _header(text: str, key: str) -> set[int]:
    m = re.search(rf"^// {key}:(.*)$", text, re.M)
    return {int(x) for x in m.group(1).split()} if m else set()


def _sarif(path: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "sarif", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    return json.loads(r.stdout)["runs"][0]["results"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_cl301_once_per_need_in_a_file(path: Path) -> None:
    text = path.read_text()
    warnings = [r for r in _sarif(path) if r["ruleId"] == "CL301" and r["level"] == "warning"]
    lines = {r["locations"][0]["physicalLocation"]["region"]["startLine"] for r in warnings}
    assert lines == _header(text, "report"), [r["message"]["text"] for r in warnings]
    related = {n["physicalLocation"]["region"]["startLine"] for r in warnings for n in r.get("relatedLocations", [])}
    assert _header(text, "notes") <= related
    if re.search(r"^// fix: yes$", text, re.M):
        (only,) = warnings
        assert not only.get("relatedLocations") and "more use" not in only["message"]["text"]


def test_the_one_report_counts_the_uses_it_stands_for() -> None:
    """Ten helpers: the message says how many other uses the notes stand for (capped notes end
    with a count), so the reader knows the size of the decision."""
    (path,) = [p for p in CASES if p.stem == "many_functions_counted"]
    (warning,) = [r for r in _sarif(path) if r["ruleId"] == "CL301"]
    assert "9 more uses" in warning["message"]["text"]
    notes = [n["message"]["text"] for n in warning["relatedLocations"]]
    assert len(notes) <= 9 and notes[-1].startswith("and ")
