"""clang-19 as the oracle for what cllint extracts: every kernel of the labelled host files
that cllint finds clean builds with clang (so the extraction, escapes and pyopencl's
generated frames are right), and each kernel with an expected error-severity report is one
clang rejects. Placeholder kernels are left out: clang cannot know the host's values."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from embedded_labelled import Case, cases

from cllint.analysis.diagnostics import Severity
from cllint.analysis.embedded import find_kernels
from cllint.analysis.embedded.lint import map_diagnostic
from cllint.analysis.embedded.python_host import UNKNOWN_CTYPE
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

CLANG = shutil.which("clang-19")
pytestmark = pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
ALL = cases("fixtures") + cases("heldout")


def clang_accepts(source: bytes, tmp_path: Path) -> tuple[bool, str]:
    path = tmp_path / "k.cl"
    path.write_bytes(source)
    r = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-Xclang",
                        "-finclude-default-header", "-Xclang", "-cl-ext=+all", "-fsyntax-only", str(path)],
                       capture_output=True, text=True, timeout=60)
    return r.returncode == 0, r.stderr


@pytest.mark.parametrize("case", ALL, ids=lambda c: f"{c.path.parent.name}/{c.path.name}")
def test_clean_kernels_build_and_errors_are_clang_errors(case: Case, tmp_path: Path) -> None:
    source = case.path.read_bytes()
    for kernel in find_kernels(str(case.path), source):
        if _has_placeholder(kernel.source) or UNKNOWN_CTYPE.encode() in kernel.source:
            continue
        # what the user sees: errors that map into the host file (not into pyopencl's frame)
        errors = [m for d in lint_tree(str(case.path), kernel.source, parse(kernel.source), LintOptions())
                  if d.severity is Severity.ERROR
                  and (m := map_diagnostic(d, str(case.path), kernel.positions)) is not None]
        ok, log = clang_accepts(kernel.source, tmp_path)
        assert ok == (not errors), (kernel.source.decode(), log, errors)


def _has_placeholder(source: bytes) -> bool:
    """True when the kernel holds a neutral placeholder identifier (`__name__`-like)."""

    words = re.findall(rb"\b__[A-Za-z0-9_]*", source)
    known = (b"__kernel", b"__global", b"__local", b"__constant", b"__private", b"__read_only",
             b"__write_only", b"__read_write", b"__attribute__", b"__OPENCL_C_VERSION__")
    return any(w not in known for w in words)
