"""Build options the host or the build attaches to a program (issue 29, session 13): `-include`,
`-D NAME=V` and `-cl-std=` on a CMake command or function that compiles OpenCL sources (or a
call of the build's own function that names them with `-cl-std=` in its arguments, session 17:
`cmake_keyword_call_*`, tune 3/3, held out 1/2, the miss a known CL110/CL301 duplicate), a
literal `-cl-std=CLx.y` a host passes when it builds a named source, and a `cl_khr_fp16` pragma
enabled under `#ifdef cl_khr_fp16` (PoCL's force-included `_enable_all_exts.h`).

Each case folder is a small workspace checked as a user runs `cllint check .` in it, labelled by
clang-19 building the program as `BUILD` says (`-cl-std=CL1.2` unless the options name
another, run in the case's folder so relative `-include`/`-I` paths and its `#include`s resolve). `heldout/` was
written with `tune/` and not looked at while the code was written."""

from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import CLANG, case_id, cases, clang_build, expected, reports

CASES = cases("build_options")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    done = clang_build(case, tmp_path, "CL1.2", "-I", str(case))
    assert (done.returncode != 0) == bool(expected(case)), done.stderr


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)


def test_the_programs_version_and_defines_yield_to_the_users() -> None:
    from cllint.analysis.lint import LintOptions
    from cllint.analysis.target import Target
    from cllint.project.model import ProgramContext

    ctx = ProgramContext(defines=(("MODE", "2"), ("TILE", "8")), std="CL2.0")
    alone = ctx.apply(LintOptions())
    assert (alone.std, alone.target.version.major, alone.target.version.minor) == ("CL2.0", 2, 0)
    assert dict(alone.defines) == {"MODE": "2", "TILE": "8"}
    mine = ctx.apply(LintOptions(std="CL3.0", target=Target.preset("CL3.0"), defines=(("MODE", "1"),)))
    assert mine.std == "CL3.0" and dict(mine.defines) == {"MODE": "1", "TILE": "8"}
    device = Target.preset("CL1.2")
    assert ctx.apply(LintOptions(mode="target", target=device)).target is device
