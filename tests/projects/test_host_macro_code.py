"""Code written through macros that the host or the file supplies, met in real projects
(issue 29, session 13: clDNN, LuxCore), each a small workspace checked as a user runs
`cllint check .` in it: function heads made by a host macro (`KERNEL(name)(params)` with
`KERNEL(name)` a JIT definition), text in an `#if` arm on a host macro that a build never
compiles (`ERROR: unsupported ...`), and a loop written through a macro for `for`.

Every case folder holds the workspace, `EXPECT` (the reports wanted, `file code line` a line;
empty: none) and `BUILD` (`options:` and `sources:` as the host builds the program). The label
is clang-19's: the program built that way fails exactly where a report is expected. `heldout/`
was written with `tune/` and first checked once the changes were done; its figures are
reported apart."""

from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import CLANG, case_id, cases, clang_build, expected, reports

CASES = cases("host_macro_code")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    done = clang_build(case, tmp_path, "CL3.0")
    assert (done.returncode != 0) == bool(expected(case)), done.stderr


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
