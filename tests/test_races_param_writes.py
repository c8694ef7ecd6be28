"""CL21x with kernel parameters the body assigns (issue 29, beignet's copy kernels): a scalar
parameter is the same in every work-item only while the body leaves it alone; `dst_offset +=
j * pitch + i` makes it the work-item's own place, so `dst[dst_offset]` is no shared store.
Cases under tests/rules/fixtures/races/param_writes/ (`tune/` worked against, `heldout/` written
with them before the code and only scored); labels confirmed by Oclgrind
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_param_writes.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "param_writes"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 3 and len(HELDOUT) >= 2


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path)


def test_heldout_targets() -> None:
    f = figures(HELDOUT)
    assert f["positives"] >= 1 and f["negatives"] >= 1
    assert f["fp"] == 0 and f["tp"] == f["positives"], f


if __name__ == "__main__":
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        print(name, figures(half), file=sys.stdout)
