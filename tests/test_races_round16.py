"""CL21x on the round-16 labelled race set (issue 31, races round 2): probe kernels written from
the OpenCL memory model for shapes earlier rounds left open (tests/rules/fixtures/races/round16/):
a private struct holding a `__global` or `__local` pointer handed on from helper to helper (by
value, by its address, a by-value copy's address), and a pointer chosen by `?:` or an if/else
passed to a helper (as the argument itself, or a private pointer defined by it). Racy and
race-free twins; `heldout/` (by crc32 of the name % 3 == 0, written with the rest before the
code) is only scored. Every label is confirmed by `oclgrind-kernel --data-races`
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round16.py    # kernel-level figures per half
"""

from __future__ import annotations

from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round16"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 5


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("held out", HELDOUT)):
        print(label, figures(cases))
