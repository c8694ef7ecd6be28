"""Reports said once per name in a file (issue 29, item 6): a macro the host passes with `-D`
(CL012) is one finding however many functions use it; the other functions' uses become the
first report's notes. Done on a file's merged result (after an incremental run's merge and the
suppressions), so that each function's findings stay its own until then."""

from __future__ import annotations

from cllint.analysis.diagnostics import Diagnostic, Note
from cllint.analysis.records import replace

ONCE_PER_FILE = frozenset({"CL012"})
_MAX_NOTES = 8  # as analysis/semantic/names.py: the uses shown, then a count


def once_per_file(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics` with each (code, file, message) of ONCE_PER_FILE said once, at its first place."""
    if sum(1 for d in diagnostics if d.code in ONCE_PER_FILE) < 2:
        return diagnostics
    groups: dict[tuple[str, str, str], list[Diagnostic]] = {}
    for d in diagnostics:
        if d.code in ONCE_PER_FILE:
            groups.setdefault((d.code, d.span.file, d.message), []).append(d)
    merged: dict[int, Diagnostic | None] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda d: d.span.start)
        first, rest = group[0], group[1:]
        name = first.message.split("'")[1] if first.message.count("'") >= 2 else "it"
        notes = list(first.notes)
        for d in rest:
            notes.append(Note(d.span, f"'{name}' also used here"))
            notes.extend(d.notes)
        merged[id(first)] = replace(first, notes=_capped(first.notes, notes[len(first.notes):]))
        for d in rest:
            merged[id(d)] = None
    return [merged.get(id(d), d) for d in diagnostics if merged.get(id(d), d) is not None]


def _capped(own: tuple[Note, ...], more: list[Note]) -> tuple[Note, ...]:
    """The first report's own notes, then the others' uses up to the cap and a count."""
    room = max(0, _MAX_NOTES - len(own))
    if len(more) <= room:
        return (*own, *more)
    return (*own, *more[:room], Note(more[room].span, f"and {len(more) - room} more uses here and after"))
