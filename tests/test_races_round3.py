"""CL21x on the round-3 labelled race set (issue 31, what round 2 left): pointers chosen by an
if/else, `async_work_group_copy` / `async_work_group_strided_copy` (the copy reads its source
and writes its destination until `wait_group_events`), byte aliasing through a cast to a
`uchar *` (or `float4 *`) view, and more of round 2's classes in styles it did not cover
(tests/rules/fixtures/races/round3/). `tune/` is what the work was done against; `heldout/`
(a third, written with the rest before any code, picked by hash and set aside) is only scored.
Every label is confirmed by `oclgrind-kernel --data-races` at multi-group launch sizes
(tests/test_races_oclgrind.py reads every fixture under races/, these included).

    .venv/bin/python tests/test_races_round3.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import expected, figures, lint, reported

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round3"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    """A racy kernel: reported, on a line of one of the two racing accesses, with the
    expected code; a race-free one: nothing."""
    want, got = expected(path), reported(path)
    if want:
        assert got and got <= want, (got, want)
    else:
        assert got == set()


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
