"""A function's name handed to a macro that hands it on to others, which paste or call it
(issue 29: ROCm's device library writes `OCKL_MANGLE_T(clz,u8)(x)` in `clz`'s own body, and
`OCKL_MANGLE_T(N,T)` is `MANGLE3(__ockl, N, T)`, which pastes `__ockl_clz_u8`): the name is
never a value in the expansion, so no CL401. Handed on to a macro that stores it, or to a
function, it is one, as clang-19 says.

A fixture whose first line says `EXPECT CL0xx at N` must get that error; the others none.
`tune/` holds the cases the code was written against, `heldout/` those written beside them and
first run once the code was done."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).with_name("fixtures") / "macro_args_forwarded"
FILES = sorted(FIXTURES.glob("*/*.cl"))
CLANG = shutil.which("clang-19")
_EXPECT = re.compile(r"EXPECT (CL\d+) at (\d+)")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _expected(path: Path) -> tuple[int, str] | None:
    m = _EXPECT.search(path.read_text().splitlines()[0])
    return (int(m.group(2)), m.group(1)) if m else None


def test_split() -> None:
    assert len([p for p in FILES if p.parent.name == "heldout"]) * 3 >= len(FILES) - 1


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_cl401(path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    found = [(d["line"], d["code"]) for d in json.loads(r.stdout) if d["code"] == "CL401"]
    expected = _expected(path)
    assert found == ([expected] if expected else [])


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_clang_agrees(path: Path) -> None:
    r = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-fsyntax-only", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert (r.returncode == 0) == (_expected(path) is None), r.stderr
