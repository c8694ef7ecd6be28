"""Macros a host defines for its program, and guards the program's build makes true (issue 29,
session 13: oneDNN, Leela Zero, GROMACS), each a small workspace checked as a user runs
`cllint check .` in it.

- names a C++ host hands its build through its own API (`kernel_ctx.define_int("IC", ic)`,
  `define_int(std::string("STEP_") + std::to_string(i), ...)`, `format("-DGWS_GET_%s=...")`);
- names a host string defines (`R"(#define BOARD_SIZE )" + std::to_string(n)`,
  `f"#define TILE {t}\n" + src`, `"#define BLOCK %d\n"`);
- sub-group built-ins under `cl_intel_subgroups` (clang-19 declares the base ones for it as
  for `cl_khr_subgroups`), directly, through macros derived from it, or required by the host.

`BUILD` says how the program is built: `options:` (a device the host may build for: `-D` the
names the host defines, `-cl-ext` the extensions that device has) must fail to compile exactly
when a report is expected, and `also:` (another such device) must compile. `heldout/` was
written with `tune/` and not looked at while the checks were written; its figures are reported
apart."""

from __future__ import annotations

import shlex
import shutil
import subprocess
from pathlib import Path

import pytest
from labelled_workspaces import build, build_fields, case_id, cases, expected, reports

CASES = cases("host_defines")
CLANG = shutil.which("clang-19")


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


def _compiles(case: Path, options: list[str], sources: list[str], tmp_path: Path) -> tuple[bool, str]:
    program = tmp_path / "program.cl"
    program.write_bytes(b"".join((case / s).read_bytes() for s in sources))
    done = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-fsyntax-only",
                           *options, str(program)], capture_output=True, text=True, timeout=60)
    return done.returncode == 0, done.stderr


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path, tmp_path: Path) -> None:
    options, sources = build(case)
    ok, err = _compiles(case, options, sources, tmp_path)
    assert ok != bool(expected(case)), err
    also = build_fields(case).get("also")
    if also is not None:
        ok, err = _compiles(case, shlex.split(also), sources, tmp_path)
        assert ok, err


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
