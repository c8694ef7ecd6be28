"""Names a file-scope call of the program's function-like macro writes (issue 29: btcrecover's
`def_hash(hash_global, __global, ...)` defines `hash_global`, which the kernel then calls).
Such a name is declared for CL010/CL011; a name the macro only pastes (`n##_impl`), or a
misspelling of a written one, is still reported, as clang-19 reports it.

A fixture whose first line says `EXPECT CL0xx at N` must get exactly that error; the others
none. `tune/` holds the cases the code was written against, `heldout/` those written beside
them and first run once the code was done (both passed then)."""

from __future__ import annotations

import sys
import re
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "macro_written_names"
FILES = sorted(FIXTURES.glob("*/*.cl"))
_EXPECT = re.compile(r"EXPECT (CL\d+) at (\d+)")


def _expected(path: Path) -> list[tuple[int, str]]:
    m = _EXPECT.search(path.read_text().splitlines()[0])
    return [(int(m.group(2)), m.group(1))] if m else []


def test_split() -> None:
    held = [p for p in FILES if p.parent.name == "heldout"]
    assert len(held) * 3 >= len(FILES) and len(FILES) >= 6


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_reports(path: Path) -> None:
    found = reports(path)
    got = [(d["line"], d["code"]) for d in found if d["severity"] == "error"]
    assert got == _expected(path)


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_agrees(path: Path) -> None:
    r = clang(path)
    assert (r.returncode == 0) == (not _expected(path)), r.stderr
