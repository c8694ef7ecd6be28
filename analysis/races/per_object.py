"""CL21x said once per (rule, memory object, kernel) (issue 29, item 6): the races of one rule
on one array, buffer or variable (fields and components of its elements included) within one
kernel are one report. The first by position keeps its message, range and fix; each other
becomes a note at its own place with its own full message, followed by its own notes.

Grouped within a kernel only, so that a kernel's races are the same whether the whole file
or that kernel alone (an incremental run's focus) is analysed."""

from __future__ import annotations

from collections.abc import Callable

from cllint.analysis.once_per_key import once_per_key
from cllint.analysis.races.check import Race

ALSO = "also races here: "
MAX_NOTES = 8  # as analysis/once_per_file.py: the notes shown, then a count


def one_per_object(races: list[Race], apart: Callable[[Race], bool] = lambda r: False) -> list[Race]:
    """`races` with each (code, target) said once, at its first place; the order kept otherwise.
    `apart`: races left as they are (a suppression comment on their line: suppressing the
    first race of an array must not hide the others, nor one of the others the first)."""
    return once_per_key(races, lambda r: None if apart(r) else (r.code, r.target), _merged)


def _merged(first: Race, rest: list[Race]) -> Race:
    """`first` with each race of `rest` a note, whole races up to the cap, then a count."""
    notes = list(first.notes)
    shown = 0
    for r in rest:
        more = [(r.start, r.end, ALSO + r.message), *r.notes]
        if len(notes) + len(more) > MAX_NOTES:
            break
        notes.extend(more)
        shown += 1
    if shown < len(rest):
        left = rest[shown]
        notes.append((left.start, left.end, f"and {len(rest) - shown} more races on '{first.target[2]}' here and after"))
    return Race(first.code, first.start, first.end, first.message, tuple(notes), first.fix, first.fix_title,
                first.across_groups, first.target)
