"""A function's name handed to a macro that hands it on to others, which paste or call it
(issue 29: ROCm's device library writes `OCKL_MANGLE_T(clz,u8)(x)` in `clz`'s own body, and
`OCKL_MANGLE_T(N,T)` is `MANGLE3(__ockl, N, T)`, which pastes `__ockl_clz_u8`): the name is
never a value in the expansion, so no CL401. Handed on to a macro that stores it, or to a
function, it is one, as clang-19 says.

A fixture whose first line says `EXPECT CL0xx at N` must get that error; the others none.
`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done."""

from __future__ import annotations

import sys
import re
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "macro_args_forwarded"
FILES = sorted(FIXTURES.glob("*/*.cl"))
_EXPECT = re.compile(r"EXPECT (CL\d+) at (\d+)")


def _expected(path: Path) -> tuple[int, str] | None:
    m = _EXPECT.search(path.read_text().splitlines()[0])
    return (int(m.group(2)), m.group(1)) if m else None


def test_split() -> None:
    assert len([p for p in FILES if p.parent.name == "heldout"]) * 3 >= len(FILES) - 1


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_cl401(path: Path) -> None:
    found = reports(path)
    found = [(d["line"], d["code"]) for d in found if d["code"] == "CL401"]
    expected = _expected(path)
    assert found == ([expected] if expected else [])


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_agrees(path: Path) -> None:
    r = clang(path)
    assert (r.returncode == 0) == (_expected(path) is None), r.stderr
