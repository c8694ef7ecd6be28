"""Programs a build joins from files, and CUDA kept under `.cl`: issue 29, session 12 (LuxCore,
BitCrack). Each case folder is a small workspace checked as a user runs `cllint check .` in it.

`BUILD` says how the build compiles it: `sources:` in the order the build joins them (a
Makefile's or CMake command's `cat a.cl b.cl > all.cl`), or `language: cuda` for a file the
host hands to a CUDA compiler. `EXPECT` holds the reports wanted (`file code line`; empty: none;
CL006 is the one note kept: "not OpenCL C"). The label is clang-19's: the joined program fails
as OpenCL C exactly when an error is expected; a CUDA file compiles as CUDA and not as OpenCL C.
The `heldout/` cases were written with `tune/` and not run while the checks were written."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures" / "joined_builds"
CASES = sorted(p for p in FIXTURES.glob("*/*") if p.is_dir())
CLANG = shutil.which("clang-19")
# CUDA's qualifiers as its headers define them (the label compiles without the CUDA toolkit).
CUDA_WORDS = ["-D__forceinline__=__attribute__((always_inline))", "-D__noinline__=__attribute__((noinline))",
              "-D__device__=__attribute__((device))", "-D__host__=__attribute__((host))"]


def expected(case: Path) -> list[tuple[str, str, int]]:
    return sorted((name, code, int(at)) for name, code, at in
                  (line.split() for line in (case / "EXPECT").read_text().splitlines() if line.strip()))


def build(case: Path) -> dict[str, str]:
    return {k.strip(): v.strip() for k, v in (line.split(":", 1) for line in (case / "BUILD").read_text().splitlines()
                                              if ":" in line)}


def reports(case: Path) -> list[tuple[str, str, int]]:
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", "."], cwd=case, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(done.stdout)
                  if r["severity"] != "info" or r["code"] == "CL006")


def _clang(case: Path, language: list[str], text: str) -> subprocess.CompletedProcess:
    return subprocess.run([CLANG, *language, "-fsyntax-only", "-"], cwd=case, input=text,
                          capture_output=True, text=True, timeout=60)


def test_both_sets_have_cases() -> None:
    assert {p.parent.name for p in CASES} == {"tune", "heldout"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_label_is_clangs(case: Path) -> None:
    spec = build(case)
    text = "".join((case / s).read_text() for s in spec["sources"].split())
    opencl = _clang(case, ["-x", "cl", "-cl-std=CL3.0", "-target", "spir64"], text)
    if spec.get("language") == "cuda":
        cuda = _clang(case, ["-x", "cuda", "--cuda-device-only", "-nocudainc", "-nocudalib",
                             "--cuda-gpu-arch=sm_70", *CUDA_WORDS], text)
        assert cuda.returncode == 0 and opencl.returncode != 0, cuda.stderr
        assert [c for _, c, _ in expected(case)] == ["CL006"]
    else:
        assert (opencl.returncode != 0) == bool(expected(case)), opencl.stderr


@pytest.mark.parametrize("case", CASES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_the_reports_are_the_labels(case: Path) -> None:
    assert reports(case) == expected(case)
