"""CL21x on the round-17 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for two shapes round 16 left open (tests/rules/fixtures/races/round17/): a
pointer chosen by `?:` on a kernel argument read through arithmetic (`(it & 1) ? A : B`, `(it % 2
== 0) ? A : B`; either arm is possible, a constant condition is evaluated), and a private struct
filled by a helper (`init(&s, A)`, or returned by one, `ref_t s = make(A)`) then stored through.
Racy and race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest before
the code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round17.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round17"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 5


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


def test_heldout_targets() -> None:
    f = figures(HELDOUT)
    assert f["positives"] >= 3 and f["negatives"] >= 2
    assert f["fp"] == 0 and f["tp"] >= 3, f


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
