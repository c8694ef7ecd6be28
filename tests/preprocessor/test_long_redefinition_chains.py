"""A macro redefined under more conditions than the view folds into one value (IGC's built-ins
redefine `cl_fp64_basic_ops` under 17+ guards) leaves an `#if` on it unknown: that is the view's
limit, not the source's fault, so no CL004 (which claimed a malformed condition on valid code).
Every case compiles with clang-19; written before the change, `heldout` scored once after it."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source

CASES = {
    'tune/twenty_guarded_redefinitions': '#ifdef FEATURE_0\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_1\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_2\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_3\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_4\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_5\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_6\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_7\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_8\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_9\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_10\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_11\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_12\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_13\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_14\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_15\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_16\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_17\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_18\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_19\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#if FP_OPS\nkernel void k(global int *o) { o[0] = 1; }\n#endif\n',
    'tune/ifdef_after_thirty': '#ifdef FEATURE_0\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_1\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_2\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_3\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_4\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_5\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_6\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_7\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_8\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_9\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_10\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_11\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_12\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_13\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_14\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_15\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_16\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_17\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_18\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_19\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_20\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_21\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_22\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_23\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_24\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_25\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_26\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_27\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FEATURE_28\n#undef FP_OPS\n#define FP_OPS 0\n#endif\n#ifdef FEATURE_29\n#undef FP_OPS\n#define FP_OPS 1\n#endif\n#ifdef FP_OPS\nkernel void k(global int *o) { o[0] = 2; }\n#endif\nkernel void j(global int *o) { o[0] = 3; }\n',
    'heldout/seventeen_then_elif': '#ifdef FEATURE_0\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_1\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_2\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_3\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_4\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_5\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_6\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_7\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_8\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_9\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_10\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_11\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_12\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_13\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_14\n#undef MODE\n#define MODE 0\n#endif\n#ifdef FEATURE_15\n#undef MODE\n#define MODE 1\n#endif\n#ifdef FEATURE_16\n#undef MODE\n#define MODE 0\n#endif\n#if MODE == 1\nkernel void k(global int *o) { o[0] = 1; }\n#elif defined(MODE)\nkernel void k(global int *o) { o[0] = 2; }\n#else\nkernel void k(global int *o) { o[0] = 3; }\n#endif\n',
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_condition_error_on_a_long_chain(name: str, tmp_path: Path) -> None:
    found = lint_source(str(tmp_path / "k.cl"), CASES[name].encode(), LintOptions())
    assert [(d.code, d.message) for d in found if d.severity.name.lower() == "error"] == []


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_accepts(name: str, tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(CASES[name])
    done = subprocess.run(["clang-19", "-x", "cl", "-fsyntax-only", str(tmp_path / "k.cl")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr


def test_a_malformed_condition_is_still_reported(tmp_path: Path) -> None:
    found = lint_source(str(tmp_path / "k.cl"), b"#if 1 +\n#endif\nkernel void k() {}\n", LintOptions())
    assert "CL004" in [d.code for d in found]
