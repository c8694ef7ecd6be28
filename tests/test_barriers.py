"""CL2xx on the labelled barrier-divergence set (tests/rules/fixtures/barriers/).

Each fixture starts with `// expect: CL201 line N` lines (or `// expect: none`) and an
optional `// sim:` line used by test_barriers_oclgrind.py. Run this file directly for
the kernel-level figures:

    .venv/bin/python tests/test_barriers.py
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "barriers"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted(FIXTURES.glob("*.cl"))


def expected(src: str) -> set[tuple[str, int]]:
    return {(code, int(line)) for code, line in EXPECT.findall(src)}


def reported(path: Path) -> tuple[set[tuple[str, int]], list]:
    source = path.read_bytes()
    diags = lint_tree(str(path), source, parse(source), LintOptions(select=("CL2",)))
    lines = {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}
    return lines, diags


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case(path: Path) -> None:
    got, diags = reported(path)
    assert got == expected(path.read_text()), [(d.code, d.message, d.notes) for d in diags]


def figures() -> dict[str, float]:
    tp = fp = fn = tn = 0
    for path in CASES:
        pos = bool(expected(path.read_text()))
        hit = bool(reported(path)[0])
        tp += pos and hit
        fn += pos and not hit
        fp += hit and not pos
        tn += not pos and not hit
    return {
        "positives": tp + fn, "negatives": fp + tn, "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "recall": tp / max(tp + fn, 1), "false_positive_rate": fp / max(fp + tn, 1),
        "precision": tp / max(tp + fp, 1),
    }


def test_labelled_set_figures() -> None:
    f = figures()
    assert f["positives"] >= 20 and f["negatives"] >= 20
    assert f["recall"] >= 0.95
    assert f["false_positive_rate"] < 0.03


def test_notes_explain_the_chain() -> None:
    _, diags = reported(FIXTURES / "pos_early_return.cl")
    (d,) = diags
    assert d.message == "'barrier' may not be reached by every work-item in the work-group"
    messages = [n.message for n in d.notes]
    assert "branch condition depends on 'gid' here" in messages
    assert "work-items that take this 'return' skip the call" in messages
    assert "'gid' comes from 'get_global_id(0)' here" in messages


def test_suppression_comment() -> None:
    src = b"""kernel void k(global float *a) {
  if (get_local_id(0) < 4)
    barrier(CLK_LOCAL_MEM_FENCE); // cllint: ignore[CL201]
}
"""
    assert lint_tree("s.cl", src, parse(src), LintOptions(select=("CL2",))) == []


@pytest.mark.parametrize("src", [
    b"kernel void k( { barrier(",
    b"kernel void k() { for (;;) { barrier(1); } }",
    b"kernel void k() { lbl: if (get_local_id(0)) goto lbl; barrier(1); goto nowhere; }",
    b"void f(void); kernel void k() { switch (get_local_id(0)) { } f(); }",
    b"void f() { f(); barrier(1); } kernel void k() { if (get_local_id(0)) f(); }",
])
def test_never_raises(src: bytes) -> None:
    lint_tree("x.cl", src, parse(src), LintOptions(select=("CL2",)))


if __name__ == "__main__":
    for key, value in figures().items():
        print(f"{key}: {value:.3f}" if isinstance(value, float) else f"{key}: {value}")
    sys.exit(0)
