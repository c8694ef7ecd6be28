"""Object-like macros that expand to nothing between a callee and its arguments (`f TARGS
(x)`, issue 29: mmc's `branchless_badouel_raytet MMC_TARGS (...)`, where CUDA fills the slot
with template arguments). The compiler reads a call; cllint must report neither a syntax
error (CL001) nor a function used as a value (CL401). A macro whose body is not empty keeps
its error, as clang-19 keeps it.

`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done (both passed then)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "empty_macro_spacers"
FILES = sorted(FIXTURES.glob("*/*.cl"))
CLEAN = [p for p in FILES if "keeps_error" not in p.stem]


def _reports(path: Path) -> list[tuple[int, str]]:
    found = reports(path)
    return [(d["line"], d["code"]) for d in found if d["severity"] == "error"]


def test_split() -> None:
    held = [p for p in FILES if p.parent.name == "heldout"]
    assert len(held) * 3 >= len(FILES) - 1 and len(held) >= 2


@pytest.mark.parametrize("path", CLEAN, ids=fixture_id)
def test_no_error_on_empty_spacer(path: Path) -> None:
    assert _reports(path) == []


def test_non_empty_macro_keeps_its_error() -> None:
    path = FIXTURES / "tune" / "callee_spacer_nonempty_keeps_error.cl"
    assert (7, "CL001") in _reports(path)


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_agrees(path: Path) -> None:
    r = clang(path)
    assert (r.returncode == 0) == (path in CLEAN), r.stderr
