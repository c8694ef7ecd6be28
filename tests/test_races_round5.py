"""CL21x on the round-5 labelled race set (issue 31): race-free kernels of the kinds real code
has (writes guarded by the group id, per-group slices, atomics-only counters, barrier-separated
phases, single writers such as `get_global_id(0) == 0`) and racy counterparts of each
(tests/rules/fixtures/races/round5/). `tune/` is what the work was done against; `heldout/` (a
third, picked by hash, written with the rest before any code and set aside) is only scored.
Every label is confirmed by `oclgrind-kernel --data-races` at multi-group launch sizes
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round5.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round5"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path)


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
