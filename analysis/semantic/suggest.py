""""Did you mean": the closest spelling among the names in scope, as clang's typo correction
picks it (an edit distance of at most a third of the name, ties left unsuggested)."""

from __future__ import annotations

from collections.abc import Iterable


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


def closest(name: str, candidates: Iterable[str]) -> str | None:
    """The one candidate nearest to `name` within the limit; None when none or a tie."""
    limit = max(1, (len(name) + 2) // 3) if len(name) > 2 else 1
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
