"""Reuse of a file's last preprocessor view for its next text.

The builder (`view._Builder`) reads only the fields of the main file's directives, the text's
length, the macros (target plus `-D`) and what the include resolver answers. So when a new text
has the directives of the last build, those from some index on moved by the length change, the
same macros, and the resolver answers every request of the last build alike (same file, same
bytes), a build from scratch would make the last view with every main-file offset from the
first moved directive on moved too. `reused_view` makes that view by moving, not building:
a keystroke inside a function body costs the resolver calls and a few copies.

Offsets are classified by where they come from: those of the unchanged directives lie before
`at` (the old start of the first moved directive), those of the moved ones at or after it. The
only offsets that come from no directive are the root's and the first region's start (0) and
the last region's end (the text's length); they are handled on their own.
"""

from __future__ import annotations

from bisect import bisect_left

from ..database import current
from ..diagnostics import Diagnostic, FileId, Span
from ..records import replace
from .directives import Directive, _moved
from .expr import Env
from .view_data import (
    Branch,
    IncludeRef,
    IncludeResolver,
    MacroDef,
    PragmaEvent,
    PreprocessorView,
    ResolverCall,
    _MacroEvent,
    _merge,
    resolve_include,
)

__all__ = ["forget", "remember", "reused_view"]

Region = tuple[int, int, Branch]


class _Build:
    """What the last build of a file read and made."""

    __slots__ = ("length", "macros", "has_resolver", "calls", "regions", "view")
    length: int  # of the text
    macros: tuple[tuple[str, str], ...]
    has_resolver: bool
    calls: tuple[ResolverCall, ...]
    regions: list[Region]  # as the builder appended them, before merging
    view: PreprocessorView

    __match_args__ = ("length", "macros", "has_resolver", "calls", "regions", "view")

    def __init__(
        self,
        length: int,
        macros: tuple[tuple[str, str], ...],
        has_resolver: bool,
        calls: tuple[ResolverCall, ...],
        regions: list[Region],
        view: PreprocessorView,
    ) -> None:
        self.length = length
        self.macros = macros
        self.has_resolver = has_resolver
        self.calls = calls
        self.regions = regions
        self.view = view

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"length={self.length!r}, " f"macros={self.macros!r}, "
                f"has_resolver={self.has_resolver!r}, " f"calls={self.calls!r}, "
                f"regions={self.regions!r}, " f"view={self.view!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.length, self.macros, self.has_resolver, self.calls, self.regions, self.view)
        theirs = (other.length, other.macros, other.has_resolver, other.calls, other.regions, other.view)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.length, self.macros, self.has_resolver, self.calls, self.regions, self.view))


_LAST_MAX = 16  # files; an editor's open files, not a CLI run's thousands


def _builds():
    """Per file, its last build (the database's "preprocessor.builds")."""
    return current().per_file("preprocessor.builds", _LAST_MAX)


def remember(file_id: FileId, length: int, macros: dict[str, str], resolver: IncludeResolver | None,
             calls: tuple[ResolverCall, ...], regions: list[Region], view: PreprocessorView) -> None:
    builds = _builds()
    builds.pop(file_id, None)
    builds.put(file_id, _Build(length, tuple(macros.items()), resolver is not None, calls, regions, view))


def forget(file_id: FileId) -> None:
    _builds().pop(file_id, None)


def reused_view(file_id: FileId, length: int, macros: dict[str, str], directives: list[Directive],
                resolver: IncludeResolver | None) -> PreprocessorView | None:
    """The view a build from scratch would make, from the file's last one; None when the
    inputs differ in more than moved directives (the caller then builds)."""
    last = _builds().get(file_id)
    if last is None or last.has_resolver != (resolver is not None) or last.macros != tuple(macros.items()):
        return None
    delta = length - last.length
    at = _first_moved(last.view.directives, directives, delta, last.length)
    if at is None:
        return None
    calls = _answers_again(last.calls, resolver)
    if calls is None:
        return None
    mover = _Mover(file_id, at, delta, last.view.root)
    view, regions = mover.view(last, directives, macros, length)
    remember(file_id, length, macros, resolver, calls, regions, view)
    return view


def _first_moved(old: list[Directive], new: list[Directive], delta: int, old_length: int) -> int | None:
    """Old offset from which directives moved by `delta` (past the text when none did);
    None unless `new` is `old` with a tail moved."""
    if len(old) != len(new):
        return None
    k = 0
    while k < len(old) and (old[k] is new[k] or old[k] == new[k]):
        k += 1
    if k == len(old):
        return old_length + 1
    if delta == 0 or any(_moved(o, delta) != d for o, d in zip(old[k:], new[k:])):
        return None
    return old[k].start


def _answers_again(calls: tuple[ResolverCall, ...],
                   resolver: IncludeResolver | None) -> tuple[ResolverCall, ...] | None:
    """The last build's resolver requests asked again; None when an answer differs. Equal
    answers make every later request the same, so the sequence stays that of a build."""
    if not calls:
        return calls
    assert resolver is not None  # calls were made, and the resolver's presence matched
    out: list[ResolverCall] = []
    for request, answer in calls:
        now = resolve_include(resolver, *request)
        if now != answer:
            return None
        out.append((request, now))
    return tuple(out)


class _Mover:
    """Moves the main file's offsets at or after `at` by `delta`; copies only what changes,
    so objects wholly before the edit are shared with the last view (none is ever mutated)."""

    def __init__(self, file_id: FileId, at: int, delta: int, root: Branch) -> None:
        self.file_id = file_id
        self.at = at if delta else 1 << 62  # nothing moves
        self.delta = delta
        self._branches: dict[int, Branch] = {id(root): root}

    def view(self, last: _Build, directives: list[Directive], macros: dict[str, str],
             length: int) -> tuple[PreprocessorView, list[Region]]:
        old = last.view
        view = PreprocessorView(old.file_id, old.root, Env(macros))
        view.directives = directives
        regions = self.regions(last.regions, length)
        view.regions = _merge(regions)
        view._starts = [r[0] for r in view.regions]
        for name, events in old._macro_events.items():
            view._macro_events[name], view._macro_offsets[name] = self.events(events, old._macro_offsets[name])
        if old._macro_states is not None:  # the digests read no offsets: only the offsets move
            offsets, states = old._macro_states
            view._macro_states = ([self.offset(o) for o in offsets], states)
        else:  # what they will be made of (once made, the log is not read again)
            view._state_log = [(self.offset(o), data) for o, data in old._state_log]
        view.pragmas = [self.pragma(p) for p in old.pragmas]
        view._pragma_offsets = [p.offset for p in view.pragmas]
        view.fp_contract = [(self.offset(w), name, self.branch(b)) for w, name, b in old.fp_contract]
        view.includes = [self.include(r) for r in old.includes]
        view.diagnostics = [self.diagnostic(d) for d in old.diagnostics]
        view.included_diagnostics = list(old.included_diagnostics)  # spans in other files
        return view, regions

    # -- offsets and branches -------------------------------------------------------------

    def offset(self, o: int) -> int:
        return o + self.delta if o >= self.at else o

    def span(self, s: Span) -> Span:
        if s.file != self.file_id or s.start < self.at:
            return s
        return Span(s.file, s.start + self.delta, s.end + self.delta)

    def branch(self, b: Branch) -> Branch:
        """`b` itself unless it or an ancestor opens at or after `at` in the main file."""
        got = self._branches.get(id(b))
        if got is not None:
            return got
        chain: list[Branch] = []  # unmapped ancestors, innermost first (no recursion: nesting is unbounded)
        while got is None:
            chain.append(b)
            assert b.parent is not None  # the root is seeded
            b = b.parent
            got = self._branches.get(id(b))
        for b in reversed(chain):
            parent = got
            moves = b.file == self.file_id and b.start >= self.at
            if parent is b.parent and not moves:
                got = b
            else:
                got = Branch(parent, b.own, b.active, b.file, b.start + self.delta if moves else b.start, b.depth)
                got._combined = b._combined  # conditions only: unchanged
            self._branches[id(b)] = got
        return got

    # -- view parts -----------------------------------------------------------------------

    def regions(self, old: list[Region], length: int) -> list[Region]:
        last = len(old) - 1
        out = []
        for i, (start, end, b) in enumerate(old):
            out.append((start if i == 0 else self.offset(start), length if i == last else self.offset(end),
                        self.branch(b)))
        return out

    def events(self, events: list[_MacroEvent], offsets: list[int]) -> tuple[list[_MacroEvent], list[int]]:
        # Events before `at` come from directives (or includes) before it, inside branches
        # that open before them: nothing of theirs moves, and the lists are shared.
        i = bisect_left(offsets, self.at)
        if i == len(events):
            return events, offsets
        moved = [_MacroEvent(e.offset + self.delta, e.name, self.macro(e.macro), self.branch(e.branch))
                 for e in events[i:]]
        return events[:i] + moved, offsets[:i] + [e.offset for e in moved]

    def macro(self, m: MacroDef | None) -> MacroDef | None:
        if m is None:
            return None
        span = self.span(m.span)
        return m if span is m.span else replace(m, span=span)

    def pragma(self, p: PragmaEvent) -> PragmaEvent:
        if p.offset < self.at:
            return p
        return PragmaEvent(p.offset + self.delta, self.span(p.span), p.name, p.behavior, self.branch(p.branch))

    def include(self, r: IncludeRef) -> IncludeRef:
        span = self.span(r.span)
        return r if span is r.span else replace(r, span=span)

    def diagnostic(self, d: Diagnostic) -> Diagnostic:
        # The preprocessor's diagnostics carry one span: no notes, no fixes.
        span = self.span(d.span)
        return d if span is d.span else replace(d, span=span)
