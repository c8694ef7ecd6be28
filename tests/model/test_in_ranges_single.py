"""`in_ranges` with one range (a keystroke's focus, asked ~400 times a keystroke) answers as
the bisection over many does: the range's start in, its end out (issue 32, session 20)."""

from __future__ import annotations

import random

from cllint.analysis.model.walk import in_ranges


def _brute(ranges: list[tuple[int, int]], offset: int) -> bool:
    return any(s <= offset < e for s, e in ranges)


def test_one_range_edges() -> None:
    assert [in_ranges([(10, 20)], x) for x in (9, 10, 19, 20)] == [False, True, True, False]
    assert not in_ranges([(5, 5)], 5)  # an empty range holds nothing
    assert in_ranges(None, 7)


def test_random_ranges_against_brute_force() -> None:
    rng = random.Random(20)
    for _ in range(300):
        cuts = sorted(rng.sample(range(200), rng.choice((2, 2, 4, 6))))
        ranges = list(zip(cuts[::2], cuts[1::2]))
        for x in range(-2, 203):
            assert in_ranges(ranges, x) == _brute(ranges, x), (ranges, x)
