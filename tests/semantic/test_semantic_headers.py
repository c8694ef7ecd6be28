"""The semantic family in files whose `#include`s cllint can read: names, macros and functions
the headers declare count as declared, and the file is checked as one without includes. Labelled
cases (fixtures/headers/), clang-19 with `-I` as the oracle, linted through the CLI's engine
(`cllint check -I`); the held-out split is scored apart (bench/semantic_recall.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from header_cases import CLANG, SPLITS, HeaderCase, clang, load  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.rules.semantic import RULES  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402

CODES = tuple(r.code for r in RULES)
CASES = [c for split in SPLITS for c in load(split)]
IDS = [f"{c.split}-{c.name}" for c in CASES]


def semantic(case: HeaderCase, path: Path) -> list[tuple[int, str, str]]:
    """(line, code, message) of the family's reports on `path`, as `cllint check -I` lints it."""
    data = path.read_bytes()
    opts = LintOptions(select=CODES, include_paths=tuple(str(p) for p in case.include))
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code, d.message) for d in lint_source(str(path), data, opts)]


def test_cases_cover_the_brief() -> None:
    tune, held = load("tune"), load("heldout")
    assert len(tune) >= 12 and len(held) >= 6
    assert {c.expect for c in tune} >= {"CL010", "CL011", "CL013", "clean", "unread"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clang_confirms(case: HeaderCase) -> None:
    if case.expect == "unread":
        assert any(kind == "fatal error" and "not found" in msg for _, kind, msg in clang(case, case.kernel, anywhere=True))
        return
    if case.expect == "clean":
        assert [d for d in clang(case, case.kernel) if d[1] != "warning"] == []
        return
    assert any(line == case.line and kind == "error" for line, kind, _ in clang(case, case.kernel))
    assert [d for d in clang(case, case.fixed) if d[1] != "warning"] == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reported_on_the_line(case: HeaderCase) -> None:
    found = semantic(case, case.kernel)
    if case.expect in ("clean", "unread"):
        assert found == []
    else:
        assert (case.line, case.expect) in {(line, code) for line, code, _ in found}, found
        assert semantic(case, case.fixed) == []
