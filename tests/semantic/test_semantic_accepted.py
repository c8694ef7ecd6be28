"""False alarms of issue 29 on kernels clang-19 accepts: `cl_` names the file declares or the
spec defines, queues compared with 0, `##`-only macro arguments, `overloadable` definitions.
The held-out split is scored by `python tests/semantic/test_semantic_accepted.py heldout`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from accepted_cases import CLANG, Case, clang_errors, cllint_reports, load  # noqa: E402

CASES = load("tune")


def test_cases_are_labelled() -> None:
    assert len(CASES) >= 8
    assert 3 * len(load("heldout")) >= len(CASES)  # about a third aside


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clang_accepts(case: Case) -> None:
    assert clang_errors(case) == []


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_quiet(case: Case) -> None:
    assert cllint_reports(case) == []


if __name__ == "__main__":
    split = sys.argv[1] if len(sys.argv) > 1 else "tune"
    cases = load(split)
    quiet = 0
    for case in cases:
        assert clang_errors(case) == [], case.name
        found = cllint_reports(case)
        quiet += not found
        if found:
            print("FAIL", case.name, found)
    print(f"{split}: {quiet}/{len(cases)} quiet")
