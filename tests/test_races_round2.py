"""CL21x on the round-2 labelled race set (issue 31): tests/rules/fixtures/races/round2/, one
racy and one race-free kernel per class the issue lists (cross-group races on __global memory,
atomic and plain access to one location, ids through macros, struct fields and vector
components, small constant indices and guards, counters shared by every work-item,
`barrier(0)`, loop back-edges, two different constants written to one cell). `tune/` is what
the work was done against; `heldout/` (a third, written with the rest before any code and set
aside) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/, these included).

    .venv/bin/python tests/test_races_round2.py    # kernel-level figures per half
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round2"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


def reported(path: Path) -> set[tuple[str, int]]:
    src = path.read_bytes()
    diags = lint_tree(path.name, src, parse(src), LintOptions(select=("CL21",)))
    return {(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in diags}


def expected(path: Path) -> set[tuple[str, int]]:
    return {(c, int(n)) for c, n in EXPECT.findall(path.read_text())}


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    """A racy kernel: reported, with the expected code, on a line of one of the two racing
    accesses (one report per race); a race-free one: nothing."""
    want, got = expected(path), reported(path)
    if want:
        assert got and got <= want, (got, want)
    else:
        assert got == set()


def figures(cases: list[Path]) -> dict[str, float]:
    tp = fp = fn = tn = 0
    for path in cases:
        want, got = expected(path), reported(path)
        hit = bool(got) and got <= want if want else bool(got)
        if want:
            tp, fn = tp + hit, fn + (not hit)
        else:
            fp, tn = fp + hit, tn + (not hit)
    return {"positives": tp + fn, "negatives": fp + tn, "tp": tp, "fn": fn, "fp": fp, "tn": tn,
            "recall": tp / max(tp + fn, 1), "false_alarm_rate": fp / max(fp + tn, 1)}


def test_heldout_targets() -> None:
    f = figures(HELDOUT)
    assert f["positives"] >= 8 and f["negatives"] >= 6
    assert f["fp"] == 0, f
    assert f["recall"] >= 0.85, f


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
