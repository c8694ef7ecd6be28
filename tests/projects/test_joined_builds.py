"""Programs a build joins from files, and CUDA kept under `.cl`: issue 29, session 12 (LuxCore,
BitCrack). Each case folder is a small workspace checked as a user runs `cllint check .` in it.

`BUILD` says how the build compiles it: `sources:` in the order the build joins them (a
Makefile's or CMake command's `cat a.cl b.cl > all.cl`), or `language: cuda` for a file the
host hands to a CUDA compiler. `EXPECT` holds the reports wanted (`file code line`; empty: none;
CL006 is the one note kept: "not OpenCL C"). The label is clang-19's: the joined program fails
as OpenCL C exactly when an error is expected; a CUDA file compiles as CUDA and not as OpenCL C.
The `heldout/` cases were written with `tune/` and not run while the checks were written."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from labelled_workspaces import build_fields, case_id, cases, expected
from labelled_workspaces import reports as _reports

CASES = cases("joined_builds")
CLANG = shutil.which("clang-19")
# CUDA's qualifiers as its headers define them (the label compiles without the CUDA toolkit).
CUDA_WORDS = ["-D__forceinline__=__attribute__((always_inline))", "-D__noinline__=__attribute__((noinline))",
              "-D__device__=__attribute__((device))", "-D__host__=__attribute__((host))"]


def reports(case: Path) -> list[tuple[str, str, int]]:
    return _reports(case, keep=frozenset({"CL006"}))  # the one note kept: "not OpenCL C"


def _clang(case: Path, language: list[str], text: str) -> subprocess.CompletedProcess:
    return subprocess.run([CLANG, *language, "-fsyntax-only", "-"], cwd=case, input=text,
                          capture_output=True, text=True, timeout=60)


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_label_is_clangs(case: Path) -> None:
    spec = build_fields(case)
    text = "".join((case / s).read_text() for s in spec["sources"].split())
    opencl = _clang(case, ["-x", "cl", "-cl-std=CL3.0", "-target", "spir64"], text)
    if spec.get("language") == "cuda":
        cuda = _clang(case, ["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                             "--cuda-gpu-arch=sm_70", *CUDA_WORDS], text)
        assert cuda.returncode == 0 and opencl.returncode != 0, cuda.stderr
        assert [c for _, c, _ in expected(case)] == ["CL006"]
    else:
        assert (opencl.returncode != 0) == bool(expected(case)), opencl.stderr


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
