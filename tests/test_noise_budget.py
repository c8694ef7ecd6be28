"""The noise budget (issue 18): on kernels clang-19 compiles cleanly for a target, the
default rule set, in target mode for that same target, reports nothing.

Exceptions are the rules whose purpose is to flag code compilers accept: CL2xx (divergent
barriers and collectives are undefined behaviour clang cannot see), CL304 (a deprecated
built-in still compiles) and CL407 (recursion compiles, then fails at run time on most
devices). Each kernel under tests/rules/fixtures/clean/ names its target the way clang is
told it: `// std: CL3.0` is `-cl-std=CL3.0`, `// features: -all,+__opencl_c_fp64` is
`-cl-ext=-all,+__opencl_c_fp64` (cllint's `--features` takes the same spelling). The
`heldout` third was written before the rules changed and left untouched after.
The public-corpus version of this measurement is bench/noise.py.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.config import Settings, build_target
from cllint.grammar import parse

CLEAN = Path(__file__).parent / "rules" / "fixtures" / "clean"
CASES = sorted(CLEAN.glob("*/*.cl"))
CLANG = shutil.which("clang-19")
# code prefix -> why a report is allowed on code compilers accept
ALLOWED = {
    "CL2": "divergent barriers and collectives compile; they are undefined behaviour at run time",
    "CL304": "deprecated built-ins still compile; the rule is there to say so",
    "CL407": "recursion compiles; most devices fail to run it",
}


def _header(text: str, key: str) -> str | None:
    m = re.search(rf"^// {key}:[ \t]*(.*)$", text, re.M)
    return m.group(1).strip() if m else None


def _settings(path: Path) -> Settings:
    text = path.read_text()
    return Settings(std=_header(text, "std"), features=_header(text, "features") or None)


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_clang_accepts(path: Path) -> None:
    s = _settings(path)
    cmd = [CLANG, "-x", "cl", f"-cl-std={s.std}", "-target", "spir64", "-Xclang", "-finclude-default-header",
           "-fsyntax-only", str(path)]
    if s.features:
        cmd[1:1] = ["-Xclang", f"-cl-ext={s.features}"]
    result = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_default_rules_are_silent(path: Path) -> None:
    source = path.read_bytes()
    options = LintOptions(target=build_target(_settings(path)), mode="target")
    diags = lint_tree(path.name, source, parse(source), options)
    noisy = [(d.code, source.count(b"\n", 0, d.span.start) + 1, d.message) for d in diags
             if not d.code.startswith(tuple(ALLOWED))]
    assert noisy == []


def test_budget_counts_a_real_problem() -> None:
    """The same check fails on a kernel clang rejects for its target (double without fp64)."""
    source = b"kernel void k(global double *d) { d[0] = 1; }\n"
    options = LintOptions(target=build_target(Settings(std="CL3.0")), mode="target")
    assert [d.code for d in lint_tree("k.cl", source, parse(source), options)] == ["CL302"]
