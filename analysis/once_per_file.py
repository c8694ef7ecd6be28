"""Reports said once per name in a file (issue 29, item 6): a macro the host passes with `-D`
(CL012) is one finding however many functions use it; the other functions' uses become the
first report's notes. Likewise a feature used unguarded (CL301) in several functions of a file
(a prototype and its definition, helpers and kernels): guarding the file or having the host
require the feature is one decision, so it is one warning, the other functions' uses its notes.
Done on a file's merged result (after an incremental run's merge and the suppressions), so
that each function's findings stay its own until then."""

from __future__ import annotations

import re

from cllint.analysis.diagnostics import Diagnostic, Note, Severity
from cllint.analysis.lazy_re import lazy
from cllint.analysis.records import replace

ONCE_PER_FILE = frozenset({"CL012"})
_MAX_NOTES = 8  # as analysis/semantic/names.py: the uses shown, then a count
# CL301's per-function wording (analysis/rules/features.py): "<use> is not guarded by <need>",
# then "(and N more uses here)" where the function uses it again.
_UNGUARDED = lazy(r"^(?P<what>.*) is not guarded by (?P<need>.*?)(?: \(and (?P<more>\d+) more uses? here\))?$")


def once_per_file(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """`diagnostics` with each (code, file, message) of ONCE_PER_FILE said once, at its first
    place, and each unguarded need (CL301) once per file."""
    diagnostics = _unguarded_once(diagnostics)
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


def _unguarded_once(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """One CL301 warning per (file, need): the first use's report, counting the others, which
    follow as its notes; no fix then (the wrap would guard one function of many)."""
    groups: dict[tuple[str, str], list[tuple[Diagnostic, re.Match[str]]]] = {}
    for d in diagnostics:
        if d.code == "CL301" and d.severity == Severity.WARNING and (m := _UNGUARDED.match(d.message)):
            groups.setdefault((d.span.file, m["need"]), []).append((d, m))
    if all(len(g) < 2 for g in groups.values()):
        return diagnostics
    merged: dict[int, Diagnostic | None] = {}
    for group in groups.values():
        if len(group) < 2:
            continue
        group.sort(key=lambda dm: dm[0].span.start)
        (first, m), rest = group[0], group[1:]
        others = int(m["more"] or 0) + sum(1 + int(r["more"] or 0) for _, r in rest)
        notes: list[Note] = []
        for d, r in rest:
            notes.append(Note(d.span, f"also used here ({r['what']})"))
            notes.extend(d.notes)
        message = f"{m['what']} is not guarded by {m['need']} (and {others} more use{'s' if others != 1 else ''} in this file)"
        merged[id(first)] = replace(first, message=message, fix=None, notes=_capped(first.notes, notes))
        for d, _ in rest:
            merged[id(d)] = None
    return [merged.get(id(d), d) for d in diagnostics if merged.get(id(d), d) is not None]
