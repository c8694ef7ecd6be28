"""CL21x on the round-18 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for two shapes round 17 left open (tests/rules/fixtures/races/round18/):
an access under an ordinary guard that reads only the kernel's scalar arguments (`if (it & 1)
A[g + 1] = g;`, `if (mode == 2)`, `if (!flag)`, a `return` or `switch` on one: every work-item
takes it or none does, so a race under it exists whenever it can hold), and a struct whose
pointer a helper sets to an offset of its argument (`s->p = buf + o`, `r.p = b + o`, `&buf[o]`).
Racy and race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest before
the code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round18.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round18"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 9


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
