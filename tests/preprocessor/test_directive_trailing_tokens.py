"""Tokens after `#else` or `#endif` (issue 29: IGC's `#endif __OPENCL_C_VERSION__ >=
CL_VERSION_2_0`): clang-19 warns ("extra tokens at end of #endif directive") and compiles, so
they are no syntax error (CL001). `tune/` holds the cases the code was written against,
`heldout/` one written beside them and first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "directive_trailing_tokens"
FILES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    found = reports(path)
    assert [(d["line"], d["code"]) for d in found if d["severity"] == "error"] == []


def test_an_error_on_the_next_line_stays(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("#if 1\nint a;\n#endif X\nkernel void k(global int *o) { o[0] = 1 }\n")
    found = reports(path)
    assert [d["line"] for d in found if d["code"] == "CL001"] == [4]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
