"""The clang layer says nothing more about a name a native rule already reports as undeclared
(issue 29, item 6: one report per name). clang-19 gives "use of undeclared identifier 'val'"
on every line that uses it (Anakin's Deconv.cl, a tune project, 4 x CL099); CL010 reports it
once, the other uses as its notes. clang's other errors, and its undeclared errors on other
names, stay. Written before the change; real clang-19 output, a real file."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.compiler import compiler_diagnostics
from cllint.grammar import parse

SOURCE = b"""kernel void k(global float *out, int n) {
    if (n > 0) { float val = 1.0f; out[0] = val; }
    out[1] = val;
    out[2] = val * 2.0f;
    out[3] = other;
}
"""


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is the layer")
def test_clang_repeats_nothing_a_native_undeclared_report_says() -> None:
    clang = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", "-"], input=SOURCE,
                           capture_output=True).stderr.decode()
    assert clang.count("use of undeclared identifier 'val'") == 2  # the oracle: twice, lines 3 and 4
    native = [d for d in lint_tree("k.cl", SOURCE, parse(SOURCE), LintOptions()) if d.code == "CL010"]
    assert sorted(d.message.split("'")[1] for d in native) == ["other", "val"]
    only_val = [d for d in native if "'val'" in d.message]
    layer = compiler_diagnostics("k.cl", SOURCE, clang, only_val)
    # 'val' is CL010's already, on its own line and (as a note) on the other; 'other' is clang's
    assert [d.message for d in layer] == ["clang: use of undeclared identifier 'other'"]
