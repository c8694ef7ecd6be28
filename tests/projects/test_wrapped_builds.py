"""Builds whose options reach the program through a wrapper (issue 29, session 16: beignet's
unit tests, chipStar's device library).

- A host's build call made through a checking macro that takes the function as its first
  argument, `OCL_CALL (clBuildProgram, program, 1, &device, "-cl-std=CL2.0", NULL, NULL)`,
  is a build call: the one source its file names is built at that version (host_std.py).
- A CMake function that compiles OpenCL reads the variables of its caller's scope: flags set
  at the file's top level (`set(FLAGS -x cl -cl-std=CL2.0)`) outside any `if` are its flags,
  and the sources its callers pass as `${CMAKE_CURRENT_SOURCE_DIR}/${S}.cl` in a `foreach` over
  a list (literal, or a list variable set at top level) are the files that list names
  (cmake_options.py).

Each case folder is a small workspace checked as a user runs `cllint check .` in it. Labels are
clang-19's, file by file: a source `BUILD` names with its options, any other at OpenCL C 1.2
(what a build that passes no `-cl-std` gets). `heldout/` was written with `tune/` and not
looked at while the code was written. Only errors are compared (the labels are clang-19's
errors; a portability warning beside one, CL301 on the same declaration, is not labelled here)."""

from __future__ import annotations

import json
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from labelled_workspaces import CLANG, build, case_id, cases, expected

CASES = cases("wrapped_builds")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_labels_are_clangs(case: Path) -> None:
    options, sources = build(case)
    flagged = {name for name, _, _ in expected(case)}
    for source in sorted(case.glob("*.cl")):
        flags = options if source.name in sources else ["-cl-std=CL1.2"]
        done = subprocess.run([CLANG, "-x", "cl", "-target", "spir64", "-Xclang", "-finclude-default-header",
                               "-fsyntax-only", *flags, source.name], cwd=case, capture_output=True, text=True,
                              timeout=60)
        assert (done.returncode != 0) == (source.name in flagged), (source.name, shlex.join(flags), done.stderr)


def errors(case: Path) -> list[tuple[str, str, int]]:
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", "."], cwd=case, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(done.stdout)
                  if r["severity"] == "error")


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_errors_are_the_labels(case: Path) -> None:
    assert errors(case) == expected(case)
