"""Words OpenCL C reserves for future types (`quad`) but clang-19 does not treat as keywords:
code names variables with them, so they parse as identifiers (clang-19 -fsyntax-only accepts
each case, checked by the test when clang-19 is present). The held-out case was scored once,
after the grammar change."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.grammar import parse

CASES = {
    "tune/pointer_parameter": "typedef struct { float xx; } M;\nvoid f(M *quad) { quad->xx = 1.0f; }\n",
    "tune/local_variable": "kernel void k(global float *o) { float quad = o[0]; o[1] = quad * 2.0f; }\n",
    "tune/struct_local": "typedef struct { float a; } Q;\n"
                         "kernel void k(global float *o) { Q quad; quad.a = 1.0f; o[0] = quad.a; }\n",
    "heldout/array_index": "kernel void k(global int *o) { int quad[4] = {0}; quad[1] = 2; o[0] = quad[1] + quad[0]; }\n",
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_parses_as_an_identifier(name: str) -> None:
    tree = parse(CASES[name].encode())
    assert not tree.root_node.has_error, tree.root_node


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted(CASES))
def test_clang_accepts(name: str, tmp_path: Path) -> None:
    src = tmp_path / "k.cl"
    src.write_text(CASES[name])
    done = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL3.0", "-fsyntax-only", str(src)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
