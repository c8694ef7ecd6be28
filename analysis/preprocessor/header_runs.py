"""Readings of a header kept for its next `#include` (issue 32).

Template-by-include headers are read many times: libclc's clc.h includes `gentype.inc` once
per built-in (`#define __CLC_BODY <x.inc>` then `#include <clc/math/gentype.inc>`), some
24,000 macro events per file. What reading a header makes (its macro events, arms, pragmas,
diagnostics, resolver calls) depends on its bytes, the target's macros, the activity of the
arm holding the `#include`, the include depth, which nested headers are already open or
`#pragma once`d, the resolver's answers, and, for each name its conditions look up, the
macro events of that name before the `#include` as seen from there. A `Run` keeps those
names with their values at entry; an `#include` whose entry gives the same values (and the
resolver the same answers) replays the run's events with new arms under its own, at its
own offset, instead of reading the header again. Replayed and read views are the same, field
by field (tests/preprocessor/test_header_replay.py).

The runs live in the analysis database, so one CLI worker reads clc.h once for all files.
"""

from __future__ import annotations

from ..diagnostics import Diagnostic, FileId, Span
from .expr import HAS_OPERATORS, TRUE, Condition, Node
from .view_data import _MAX_CHAIN, Branch, MacroDef, ResolverCall, _guard, _MacroEvent

RUNS_MAX = 512  # (header, bytes, entry) keys; libclc reads ~400 headers
VARIANTS_MAX = 8  # entries kept per key, most recent last

# (parent index, condition, activity, file, start, depth below the header's root arm);
# index 0 is the root arm, made again under each `#include`.
BranchShape = tuple[int, Condition, "bool | None", FileId, int, int]


class Run:
    """What one reading of a header made, with what it read from outside it."""

    __slots__ = ("names", "values", "consulted", "events", "branches", "pragmas", "fp_contract",
                 "diagnostics", "calls", "once", "state", "_by_name")
    names: tuple[str, ...]  # names whose macro events the reading looked up
    values: tuple[object, ...]  # `chain_value` of each at entry
    consulted: tuple[tuple[FileId, bool, bool], ...]  # nested headers: (file, open at entry, once'd at entry)
    events: list[tuple[str, MacroDef | None, int]]  # (name, definition or None for #undef, arm index)
    branches: list[BranchShape]
    pragmas: list[tuple[Span, str, str, int]]  # (span, extension, behaviour, arm index)
    fp_contract: list[tuple[str, int]]
    diagnostics: list[Diagnostic]
    calls: list[ResolverCall]
    once: list[FileId]  # headers it marked `#pragma once`
    state: bytes  # what its active events add to the view's macro-state digest

    def __init__(self, names: tuple[str, ...], values: tuple[object, ...],
                 consulted: tuple[tuple[FileId, bool, bool], ...], events: list[tuple[str, MacroDef | None, int]],
                 branches: list[BranchShape], pragmas: list[tuple[Span, str, str, int]],
                 fp_contract: list[tuple[str, int]], diagnostics: list[Diagnostic], calls: list[ResolverCall],
                 once: list[FileId], state: bytes) -> None:
        self.names = names
        self.values = values
        self.consulted = consulted
        self.events = events
        self.branches = branches
        self.pragmas = pragmas
        self.fp_contract = fp_contract
        self.diagnostics = diagnostics
        self.calls = calls
        self.once = once
        self.state = state
        self._by_name: list[tuple[str, list[tuple[MacroDef | None, int]]]] | None = None

    def by_name(self) -> list[tuple[str, list[tuple[MacroDef | None, int]]]]:
        """The events grouped by name, names in the order of their first event."""
        if self._by_name is None:
            groups: dict[str, list[tuple[MacroDef | None, int]]] = {}
            for name, macro, b in self.events:
                got = groups.get(name)
                if got is None:
                    groups[name] = [(macro, b)]
                else:
                    got.append((macro, b))
            self._by_name = list(groups.items())
        return self._by_name

    def __repr__(self) -> str:
        return f"Run({len(self.events)} events, reads {self.names!r})"


def chain_value(events: list[_MacroEvent], ancestors: frozenset[int], name: str) -> object:
    """What the builder's `_chain` (and `_expand`'s tests) read of `events`, the events of `name`
    before an `#include`, from any arm inside the header: their guards stop at the arms
    holding the `#include`, which hold every use inside. None: no event."""
    if not events:
        return None
    guarded: list[tuple[Node, object]] = []
    base: object = "env"
    for ev in reversed(events):
        guard = _guard(ev.branch, ancestors)
        m = ev.macro
        value = None if m is None else (m.params, m.body, m.variadic)
        if guard is TRUE:
            base = ("def", value)
            break
        guarded.append((guard, value))
        if len(guarded) > _MAX_CHAIN:
            break  # the chain raises past this; nothing older is read
    dead = all(e.branch.active is False for e in events) if name in HAS_OPERATORS else None
    return base, tuple(guarded), dead


class Recording:
    """An `#include` being read for the first time with its entry: where its output starts
    in the builder's logs, and what it looks up."""

    __slots__ = ("order", "calls", "pragmas", "fp_contract", "diagnostics", "once", "state", "reads", "consulted")

    def __init__(self, order: int, calls: int, pragmas: int, fp_contract: int, diagnostics: int, once: int,
                 state: int) -> None:
        self.order = order
        self.calls = calls
        self.pragmas = pragmas
        self.fp_contract = fp_contract
        self.diagnostics = diagnostics
        self.once = once
        self.state = state
        self.reads: set[str] = set()
        self.consulted: dict[FileId, None] = {}


def shapes(base: Branch) -> tuple[list[BranchShape], dict[int, int]]:
    """An empty arm table rooted at `base`, and its index by arm identity."""
    return [(0, base.own, base.active, base.file, base.start, 0)], {id(base): 0}


def arm_index(branch: Branch, base: Branch, table: list[BranchShape], index: dict[int, int]) -> int:
    """`branch`'s index in `table`, adding it and its ancestors up to `base` (no recursion:
    arms nest without bound)."""
    got = index.get(id(branch))
    if got is not None:
        return got
    chain: list[Branch] = []
    b: Branch | None = branch
    while b is not None and id(b) not in index:
        chain.append(b)
        b = b.parent
    for c in reversed(chain):
        assert c.parent is not None
        index[id(c)] = len(table)
        table.append((index[id(c.parent)], c.own, c.active, c.file, c.start, c.depth - base.depth))
    return index[id(branch)]


def arms(run: Run, base: Branch) -> list[Branch]:
    """The run's arms made again under `base`, the new root arm of the header."""
    made = [base]
    depth = base.depth
    for parent, own, active, file, start, below in run.branches[1:]:
        made.append(Branch(made[parent], own, active, file, start, depth + below))
    return made


def make_root(parent: Branch, file: FileId) -> Branch:
    """The root arm of a header included from `parent`'s arm."""
    return Branch(parent, Condition(TRUE), parent.active, file, 0, parent.depth)
