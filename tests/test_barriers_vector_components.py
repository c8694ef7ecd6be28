"""Barrier divergence through the components of a vector literal (issue 29: AMF's chroma-key
kernels, `int2 posY = (int2)(get_global_id(0), get_global_id(1)); if (posY.y >= height)
return;` before a barrier, in work-groups one item tall): each component of `(T)(e0, e1, ...)`
stored to a private vector is its element's value, so `posY.y` is `get_global_id(1)` alone,
not the whole literal. Read by `.x`-`.w`, `.s0`-`.sF` (one or several); other swizzles, a
literal whose elements are vectors, and whole-vector reads see every component.

Fixtures: tests/rules/fixtures/barriers/vector_components/ (tuned on) and its heldout/ (by crc32
of the name % 3 == 0, written with the rest before the code, only scored). Labels are
Oclgrind's (tests/test_barriers_oclgrind.py runs each `// sim:` line).

    .venv/bin/python tests/test_barriers_vector_components.py
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from test_barriers import FIXTURES, expected, reported  # noqa: E402

TUNE = sorted((FIXTURES / "vector_components").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "vector_components" / "heldout").glob("*.cl"))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    got, diags = reported(path)
    assert got == expected(path.read_text()), [(d.code, d.message) for d in diags]


def test_heldout_cases() -> None:
    # scored once after the code
    wrong = [p.stem for p in HELDOUT if reported(p)[0] != expected(p.read_text())]
    assert wrong == []


def test_both_labels_in_each_half() -> None:
    for half in (TUNE, HELDOUT):
        assert any(p.stem.startswith("pos") for p in half) and any(p.stem.startswith("neg") for p in half)


if __name__ == "__main__":
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        right = sum(reported(p)[0] == expected(p.read_text()) for p in half)
        print(f"{name}: {right}/{len(half)}")
