"""CL20x said once per (rule, function, cause) (issue 29, item 6): the barriers and work-group
calls that one work-item-dependent branch, loop or early exit leaves unreached in one function
are one decision (make that condition uniform, or move the exit), so they are one report at the
first of them. Its message counts the others; each other is a note at its own place.

"One cause" is one reason chain: the same notes (the branch or loop, the exit taken, where the
varying value comes from). Grouped within a function only, so that a function's findings are
the same whether the whole file or that function alone (an incremental run's focus) is analysed."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable

from cllint.analysis.once_per_key import once_per_key
from cllint.analysis.uniformity.summaries import Finding

ALSO = "also here, for the same reason: "
MAX_NOTES = 8  # as analysis/races/per_object.py: the notes shown, then a count


def one_per_cause(findings: list[Finding], functions: list[tuple[int, int]],
                  apart: Callable[[Finding], bool] = lambda f: False) -> list[Finding]:
    """`findings` with each (code, function, reason chain) said once, at its first place; the
    order kept otherwise. `functions`: (start, end) of the file's definitions, sorted.
    `apart`: findings left as they are (a suppression comment on their line must hide that
    call only)."""
    starts = [s for s, _ in functions]

    def key(f: Finding) -> tuple[str, int, tuple[tuple[int, int, str], ...]] | None:
        k = bisect_right(starts, f.start) - 1
        if apart(f) or not f.notes or k < 0 or f.start >= functions[k][1]:
            return None  # (outside every function, or no reason chain: said where it is)
        return (f.code, k, f.notes)

    return once_per_key(findings, key, _merged)


def _merged(first: Finding, rest: list[Finding]) -> Finding:
    """`first` counting `rest`, each of them a note (up to the cap, then a count)."""
    notes = list(first.notes)
    shown = [(f.start, f.end, ALSO + f.message) for f in rest[:MAX_NOTES]]
    left = len(rest) - len(shown)
    if left:
        last = rest[len(shown)]
        shown.append((last.start, last.end, f"and {left} more here and after, for the same reason"))
    more = f" ({len(rest)} more call{'s' if len(rest) > 1 else ''} in this function, for the same reason)"
    return Finding(first.code, first.start, first.end, first.message + more, tuple(notes + shown))
