"""CL21x on the round-4 labelled race set (issue 31): two plain stores to one `__global`
location from two work-groups (the same store in every work-group, `p[lid] = ...` or
`out[0] = ...` by each group's item 0, and neighbouring groups' ranges that overlap), reported
when the values two work-groups store can differ; and slices at `stride * group id` with a
stride from a kernel argument (`step /= sizeof(*d)`), each group's own
(tests/rules/fixtures/races/round4/). `tune/` is what the work was done against; `heldout/`
(a third, picked by hash within each class and label, written with the rest before any code
and set aside) is only scored. Every label is confirmed by `oclgrind-kernel --data-races` at
multi-group launch sizes (tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round4.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import expected, figures, lint, reported

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round4"
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
