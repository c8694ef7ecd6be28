"""CL201 under a bound that is a whole number of work-groups (issues 29 and 5): `if (gid < (n /
16) * 16)` in a kernel whose `reqd_work_group_size` is 16 (CLBlast's `idm < (M / WGD) * WGD`
with `idm = lid * MWID + group * WGD`): each work-group's items span one aligned tile, so the
test holds for all or none of a work-group and the barrier under it is reached by all. Kept
reported: a bound rounded to less than the work-group size, no required size, `<=`, `+ 1`,
items spread past their tile, a test of the item's own id beside it. Cases under
tests/rules/fixtures/barriers/aligned/, labels by Oclgrind (tests/test_barriers_oclgrind.py
reruns them); `heldout/` (a third of each label by hash) is only scored.

    .venv/bin/python tests/test_barriers_aligned_bounds.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_barriers import expected, reported

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "barriers" / "aligned"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


def figures(cases: list[Path]) -> dict[str, float]:
    tp = fp = fn = tn = 0
    for path in cases:
        want, got = expected(path.read_text()), reported(path)[0]
        hit = bool(got) and got <= want if want else bool(got)
        tp, fn = tp + (bool(want) and hit), fn + (bool(want) and not hit)
        fp, tn = fp + (not want and hit), tn + (not want and not hit)
    return {"positives": tp + fn, "negatives": fp + tn, "tp": tp, "fn": fn, "fp": fp, "tn": tn}


def test_the_set_is_there() -> None:
    for half in (TUNE, HELDOUT):
        assert any(p.name.startswith("pos_") for p in half) and any(p.name.startswith("neg_") for p in half)


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    want, got = expected(path.read_text()), reported(path)[0]
    if want:
        assert got and got <= want, (got, want)
    else:
        assert got == set(), got


if __name__ == "__main__":
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        print(name, figures(half))
    sys.exit(0)
