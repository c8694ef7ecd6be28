"""The semantic family (CL010-CL049) on labelled one-mistake kernels, clang-19 as the oracle.

Each case pairs a kernel holding one mistake with its corrected version: clang reports the
mistake on the marked line and accepts the correction; cllint must report the case's code on
that line and nothing of the family on the correction. The held-out split (fixtures/heldout.txt)
was written with the tuning split and not looked at while tuning; its ids start with `heldout`.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from semantic_cases import CLANG, SPLITS, Case, clang, load  # noqa: E402

from cllint.analysis.lint import LintOptions, lint_tree  # noqa: E402
from cllint.analysis.rules.semantic import RULES  # noqa: E402
from cllint.grammar import parse  # noqa: E402

CODES = tuple(r.code for r in RULES)
CASES = [c for split in SPLITS for c in load(split)]
IDS = [f"{c.split}-{c.name}" for c in CASES]


def semantic(source: str) -> list[tuple[int, str, str]]:
    """(line, code, message) of the family's diagnostics on `source`."""
    data = source.encode()
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES))
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code, d.message) for d in diags]


def test_cases_cover_every_check() -> None:
    assert {c.code for c in CASES} >= {"CL010", "CL011", "CL013", "CL014", "CL015", "CL016", "CL017", "CL018",
                                       "CL019", "CL020", "CL021", "CL022"}
    assert 4 * len([c for c in CASES if c.split == "heldout"]) >= len(CASES)  # about a third aside


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clang_confirms(case: Case) -> None:
    assert any(line == case.line and kind == case.kind for line, kind, _ in clang(case.bad))
    assert not [d for d in clang(case.fixed) if d[1] == "error" or case.kind == "warning"]


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reported_on_the_line(case: Case) -> None:
    found = semantic(case.bad)
    assert (case.line, case.code) in {(line, code) for line, code, _ in found}, found


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_fixed_is_quiet(case: Case) -> None:
    assert semantic(case.fixed) == []
