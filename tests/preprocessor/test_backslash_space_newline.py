"""A backslash followed by blanks and then a newline (issue 29: OpenVX's sample kernels, whose
macro bodies have trailing blanks after some continuation backslashes): clang-19 warns
("backslash and newline separated by space") and splices the lines all the same, in macro
bodies, `#if` conditions and `//` comments alike, with LF or CRLF line ends. So cllint reads
them as one logical line: no syntax error (CL001), no bad `#if` expression (CL004). `tune/`
holds the cases the code was written against, `heldout/` ones written beside them and first
run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "backslash_space_newline"
FILES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    found = reports(path)
    assert [(d["line"], d["code"], d["message"]) for d in found if d["severity"] == "error"] == []


def test_an_error_after_the_spliced_macro_stays(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_bytes(b"#define TWO(a) (a) + \\  \n  (a)\nkernel void k(global int *o) { o[0] = TWO(1) }\n")
    found = reports(path)
    assert [d["line"] for d in found if d["code"] == "CL001"] == [3]


def test_a_backslash_before_text_is_no_splice(tmp_path: Path) -> None:
    # Only blanks may stand between the backslash and the newline: `\ x` is a stray backslash.
    path = tmp_path / "k.cl"
    path.write_bytes(b"#if 1 \\ x\n#endif\nkernel void k(global int *o) { o[0] = 1; }\n")
    found = reports(path)
    assert [d["code"] for d in found if d["severity"] == "error"] != []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
