"""CL21x on the round-12 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for the classes round 11 left open (tests/rules/fixtures/races/round12/):
small pointer offsets inside a work-item's slice (`p = a + 2 * lid; p[2]`), walks whose step is
not their last statement or that leave early, private arrays of three or more pointers chosen by
a computed index, guards relating loaded values, reads at `i` and writes at the next cell or
block across work-groups, multi-dimensional views of flat buffers (a typedef'd block, a cast
subscripted inline, a view of a shifted base), a read of a cell then another work-item's write
of it with no barrier, and atomics on pointers computed by arithmetic mixed with plain accesses.
Racy and race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest
before the code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/); race-free twins are race-free at
any launch (global ids where one work-group's simulation could not show a race between groups).

    .venv/bin/python tests/test_races_round12.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round12"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES = frozenset({
    "pos_cast_inline_3d_view_shared_row", "pos_cast_typedef_block_every_group",
    "pos_pointer_array_four_quarters_overlap", "pos_pointer_array_three_loop_local", "pos_walk_step_mid_body",
})


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 30 and len(HELDOUT) >= 15


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


if __name__ == "__main__":
    for half, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        f = figures(cases)
        print(f"{half:8} races {f['tp']}/{f['positives']}  false alarms {f['fp']}/{f['negatives']}")
    sys.exit(0)
