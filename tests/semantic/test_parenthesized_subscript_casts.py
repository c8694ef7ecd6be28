"""A parenthesized subscript before `+`, `-` or `*` (`(image[(n)]) + x`): tree-sitter reads a
cast to a type `image[(n)]` (it cannot tell a variable from a type name), the compiler a sum.
Either way the names in the brackets are the code's: no CL010 (issue 29: Xilinx's affine
example, `image1[(n * X_SIZE) + m]`). `tune/` holds the cases the code was written against,
`heldout/` those written beside them and first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "parenthesized_subscript_casts"
FILES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    assert [(d["line"], d["code"], d["message"]) for d in reports(path) if d["severity"] == "error"] == []


def test_an_undeclared_name_in_the_brackets_stays(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("kernel void k(global const float *a, global float *o)\n"
                    "{\n    float x = 1.0f;\n    o[0] = (a[(nn)]) + x;\n}\n")
    assert [(d["line"], d["code"]) for d in reports(path)] == [(4, "CL010")]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
