"""`closest` prunes candidates on lower bounds before the exact distance; its answers must be
exactly those of `closest_exhaustive` (every candidate's distance, the former way)."""

from __future__ import annotations

import random
import string

import pytest

from cllint.analysis.catalogue import catalogue
from cllint.analysis.semantic.suggest import _limit, closest, closest_exhaustive, distance

_ALPHABET = string.ascii_letters + string.digits + "_"


def _typo(rng: random.Random, word: str) -> str:
    """One to three random edits: substitute, insert, delete or swap."""
    w = list(word)
    for _ in range(rng.randint(1, 3)):
        op = rng.choice("sids")
        i = rng.randrange(len(w) + (op == "i")) if w else 0
        if op == "s" and w:
            w[i] = rng.choice(_ALPHABET)
        elif op == "i":
            w.insert(i, rng.choice(_ALPHABET))
        elif op == "d" and len(w) > 1:
            del w[i]
        elif op == "w" and len(w) > 1 and i + 1 < len(w):
            w[i], w[i + 1] = w[i + 1], w[i]
    return "".join(w)


@pytest.mark.parametrize("seed", range(4))
def test_same_answers_as_exhaustive(seed: int) -> None:
    rng = random.Random(seed)
    names = list(catalogue().functions)
    local = ["".join(rng.choice(_ALPHABET[:30]) for _ in range(rng.randint(1, 12))) for _ in range(200)]
    pool = rng.sample(names, 400) + local + ["é_nom", "x", "xy", "ab", "ba"]
    agreed = suggested = 0
    for _ in range(250):
        kind = rng.random()
        if kind < 0.6:
            name = _typo(rng, rng.choice(pool))
        elif kind < 0.8:
            name = "".join(rng.choice(_ALPHABET) for _ in range(rng.randint(1, 16)))
        else:
            name = rng.choice(pool)  # a candidate itself: never suggested to itself
        want = closest_exhaustive(name, pool)
        assert closest(name, pool) == want, name
        agreed += 1
        suggested += want is not None
    assert agreed == 250 and suggested > 30  # the comparison covers real suggestions


def test_ties_and_limits() -> None:
    assert closest("ab", ["ba", "ac"]) is None and closest_exhaustive("ab", ["ba", "ac"]) is None  # a tie
    assert closest("get_global_idx", ["get_global_id", "get_local_id"]) == "get_global_id"
    assert closest("abcdef", ["uvwxyz"]) is None
    assert distance("abcd", "abdc", 3) == 1 and _limit("abcdefgh") == 3


def test_banded_distance_is_the_distance() -> None:
    from cllint.analysis.semantic.suggest import _banded

    rng = random.Random(5)
    for _ in range(3000):
        a = "".join(rng.choice("abcd_") for _ in range(rng.randint(0, 9)))
        b = _typo(rng, a) if a and rng.random() < 0.7 else "".join(rng.choice("abcd_") for _ in range(rng.randint(0, 9)))
        limit = rng.randint(0, 5)
        # Equal within the limit; beyond it both only say "more" (distance may tell how much).
        assert min(_banded(a, b, limit), limit + 1) == min(distance(a, b, limit), limit + 1), (a, b, limit)
