"""Functions named by a macro call whose arguments are no C tokens (a pp-number such as `1D`),
with the return type and attributes on the line above (issue 29: ROCm's device library writes
`RATTR float4` then `OCKL_MANGLE_T(image_load,1D)(TSHARP i, int c)` 200 times). The head reads as
one naming a function, as when the specifiers share its line: no CL001.

`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "macro_named_heads_next_line"
FILES = sorted(FIXTURES.glob("*/*.cl"))


def test_split() -> None:
    assert len([p for p in FILES if p.parent.name == "heldout"]) * 3 >= len(FILES)


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    found = reports(path)
    assert [(d["line"], d["code"]) for d in found if d["severity"] == "error"] == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_accepts(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
