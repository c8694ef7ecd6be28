"""`as_<type>` of an opaque value or a pointer (`as_ulong(reserve_id_t)`, `as_ulong(queue_t)`,
`as_ulong(p)`): the value's size is the implementation's or the target's, and clang-19 compiles these for its default target (issue 29: AMD's
device library checks a reservation with `as_ulong(rid) != ~(size_t)0`), so no overload
mismatch (CL014) is known. `tune/` holds the cases the code was written against, `heldout/`
those written beside them and first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

FIXTURES = Path(__file__).with_name("fixtures") / "opaque_reinterpretations"
FILES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    found = reports(path)
    assert [(d["line"], d["code"], d["message"]) for d in found if d["severity"] == "error"] == []


def test_a_vector_of_the_wrong_size_stays(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("kernel void k(global ulong *o, float4 f) { o[0] = as_ulong(f); }\n")
    assert [d["code"] for d in reports(path) if d["severity"] == "error"] == ["CL014"]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
