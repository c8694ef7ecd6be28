"""One report per key (issue 29, item 6), shared by the rule families that group findings: the
races of one rule on one memory object (races/per_object.py), the calls one divergent cause
leaves unreached (uniformity/per_cause.py). The first finding of a key by position keeps its
place and becomes the report; the others are handed to `merged` to become its notes."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Protocol, TypeVar


class _Placed(Protocol):
    code: str
    start: int
    end: int


T = TypeVar("T", bound=_Placed)


def once_per_key(items: list[T], key: Callable[[T], Hashable | None], merged: Callable[[T, list[T]], T]) -> list[T]:
    """`items` with each key said once, at its first place (`merged(first, others)`); items
    whose key is None stay as they are. The list itself when no key repeats; else sorted by
    (start, code)."""
    groups: dict[Hashable, list[T]] = {}
    kept: list[T] = []
    for item in items:
        k = key(item)
        if k is None:
            kept.append(item)
        else:
            groups.setdefault(k, []).append(item)
    if all(len(g) < 2 for g in groups.values()):
        return items
    for group in groups.values():
        group.sort(key=lambda i: (i.start, i.end))
        kept.append(merged(group[0], group[1:]) if len(group) > 1 else group[0])
    kept.sort(key=lambda i: (i.start, i.code))
    return kept
