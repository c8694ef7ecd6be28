""""Did you mean": the closest spelling among the names in scope, as clang's typo correction
picks it (an edit distance of at most a third of the name, ties left unsuggested).

`closest` asks the exact distance only of candidates that could beat or tie the best so far:
a candidate whose length differs by more than the limit, or whose letters differ too much, is
dropped on a lower bound first (an index by length with each word's letter mask, then letter
counts), and the rest are tried from the lowest bound up, over the band of the distance table
within the limit of its diagonal (`_banded`). The answer is the one `closest_exhaustive` (every candidate, the former way) gives: the
bounds never exceed the distance, so no candidate at the minimum is skipped.
"""

from __future__ import annotations

from collections.abc import Iterable

from cllint.analysis.database import current


def distance(a: str, b: str, limit: int) -> int:
    """Levenshtein distance with adjacent swaps, or `limit + 1` once it exceeds `limit`."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _limit(name: str) -> int:
    return max(1, (len(name) + 2) // 3) if len(name) > 2 else 1


# One bit per identifier character ([A-Za-z0-9_] are 63: each its own bit); any other
# character shares a bit, which only weakens the bound.
_BIT = {ch: 1 << i for i, ch in enumerate("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")}
_OTHER_BIT = 1 << 63


def _mask(word: str) -> int:
    m = 0
    for ch in word:
        m |= _BIT.get(ch, _OTHER_BIT)
    return m


def _counts(word: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for ch in word:
        out[ch] = out.get(ch, 0) + 1
    return out


class _Index:
    """Candidates by length, each with its letter mask: built once per set of candidates."""

    __slots__ = ("by_len", "counts")

    def __init__(self, words: frozenset[str]) -> None:
        self.by_len: dict[int, list[tuple[int, str]]] = {}
        for w in words:
            self.by_len.setdefault(len(w), []).append((_mask(w), w))
        self.counts: dict[str, dict[str, int]] = {}

    def letter_counts(self, word: str) -> dict[str, int]:
        c = self.counts.get(word)
        if c is None:
            c = self.counts[word] = _counts(word)
        return c


_INDEXES_MAX = 16  # indexes of candidate words, by the words: the database's "semantic.suggest"


def _index(candidates: Iterable[str]) -> _Index:
    words = candidates if isinstance(candidates, frozenset) else frozenset(candidates)
    indexes = current().table("semantic.suggest", _INDEXES_MAX)
    index = indexes.get(words)
    if index is None:
        index = indexes.put(words, _Index(words))
    return index


def _banded(a: str, b: str, limit: int) -> int:
    """`distance(a, b, limit)` over the cells within `limit` of the diagonal only (any cell
    further out already holds more than `limit` edits): the same answer up to `limit`, and
    `limit + 1` for anything more, from fewer cells."""
    la, lb = len(a), len(b)
    if abs(la - lb) > limit:
        return limit + 1
    big = limit + 1
    prev2: list[int] = []
    prev = [j if j <= limit else big for j in range(lb + 1)]
    for i in range(1, la + 1):
        ca = a[i - 1]
        cur = [big] * (lb + 1)
        if i <= limit:
            cur[0] = i
        lo, hi = max(1, i - limit), min(lb, i + limit)
        row_min = cur[0]
        for j in range(lo, hi + 1):
            cb = b[j - 1]
            v = prev[j - 1] + (ca != cb)
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and prev2[j - 2] + 1 < v:
                v = prev2[j - 2] + 1
            if v > big:
                v = big
            cur[j] = v
            if v < row_min:
                row_min = v
        if row_min > limit:
            return big
        prev2, prev = prev, cur
    return min(prev[lb], big)


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate nearest to `name` within the limit; None when none or a tie."""
    limit = _limit(name)
    n = len(name)
    index = _index(candidates)
    mask_a = _mask(name)
    pool: list[tuple[int, str]] = []
    # Lower bounds the distance never goes under: the length difference, the letters one word
    # has that the other lacks (each needs an edit of its own; a swap keeps the letters), then
    # the same by letter counts for the candidates left.
    not_a = ~mask_a
    for length in range(max(0, n - limit), n + limit + 1):
        diff = abs(n - length)
        for mask_b, c in index.by_len.get(length, ()):
            extra = (mask_b & not_a).bit_count()  # letters `c` has and `name` lacks
            if extra > limit:
                continue
            missing = (mask_a & ~mask_b).bit_count()
            if missing > limit or c == name:
                continue
            pool.append((max(diff, extra, missing), c))
    pool.sort()
    best: list[str] = []
    best_d = limit + 1
    counts_a = _counts(name) if len(pool) > 1 else None
    for bound, c in pool:
        if bound > best_d:
            break  # no later candidate can beat or tie the best
        if counts_a is not None:  # by letter counts, what the masks miss (`aab` against `abb`)
            counts_b = index.letter_counts(c)
            common = 0
            for ch, k in counts_a.items():
                kb = counts_b.get(ch)
                if kb:
                    common += k if k < kb else kb
            if max(n, len(c)) - common > min(best_d, limit):
                continue  # can neither beat nor tie the best (nor come within the limit)
        d = _banded(name, c, min(limit, best_d))
        if d < best_d:
            best, best_d = [c], d
        elif d == best_d and d <= limit:
            best.append(c)
    return best[0] if len(best) == 1 else None


def closest_exhaustive(name: str, candidates: Iterable[str]) -> str | None:
    """`closest` asking every candidate's distance: the reference the tests and
    bench/suggest_bench.py compare it with."""
    limit = _limit(name)
    best: list[str] = []
    best_d = limit + 1
    for c in set(candidates):
        if c == name:
            continue
        d = distance(name, c, min(limit, best_d))
        if d < best_d:
            best, best_d = [c], d
        elif d == best_d and d <= limit:
            best.append(c)
    return best[0] if len(best) == 1 else None
