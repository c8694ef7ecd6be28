"""CL21x on the round-8 labelled race set (issue 31, races round 2): the classes still open
after round 7, written from the OpenCL memory model (tests/rules/fixtures/races/round8/):
accessor macros (`#define AT(a, i, j) a[(i) * N + (j)]`: the call is the subscript it expands
to), multi-dimensional views of flat memory through pointer-to-array casts (`local float
(*t)[8] = (local float (*)[8])buf;`, at a declaration or at the use), bytes of a buffer
written through a cast at the use (`((global uchar *)a)[4 * gid + 4]`), mirrored NDRange
indices (`get_global_size(0) - 1 - gid`, `get_num_groups(0) - 1 - g`, `n - 1 - lid`: two
work-items, or two work-groups, meeting at one element) and async work-group copies (the copy
reads its source and writes its destination until its event is waited for). Racy and race-free
twins. `tune/` is what the work was done against; `heldout/` (a third by crc32 of the name,
written with the rest before any code) is only scored. Every label is confirmed by
`oclgrind-kernel --data-races` (tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round8.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round8"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))

KNOWN_MISSES: frozenset[str] = frozenset()


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 15 and len(HELDOUT) >= 10


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


if __name__ == "__main__":
    for half, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        f = figures(cases)
        print(f"{half:8} races {f['tp']}/{f['positives']}  false alarms {f['fp']}/{f['negatives']}")
    sys.exit(0)
