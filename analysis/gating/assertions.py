"""Guards written as assertions: `#ifndef X` / `#error ...` / `#endif` (also `#if !defined(X)`,
`#if !X`, several names in one condition, `#elif` arms that only stop the build too).

Past such a group the file is built only where its condition was false, so that negation
holds to the end of the enclosing arm (or of the file): the names it implies are present for
the CL3xx rules there, and later arms it contradicts are not compiled (issue 30, class 3).
An arm counts as an assertion when it holds nothing but `#error` lines, comments and blank
space, and the group has no `#else` (an `#else` arm holds the code itself and is a guard).

Read off the main file's directives and text once per view; the result is kept on the view
(as `preprocessor/choices.py` keeps its own), so each keystroke's lint asks once.
"""

from __future__ import annotations

import re
from typing import Any

from ..preprocessor.expr import Condition, conj, negate
from cllint.analysis.lazy_re import lazy

_COMMENT = lazy(rb"//[^\n]*|/\*.*?\*/", re.S)
_OPEN = ("if", "ifdef", "ifndef")
_NEXT = ("elif", "elifdef", "elifndef", "else")


class Assertion:
    __slots__ = ("start", "end", "condition", "error", "opening")
    start: int  # end of the `#endif` line: it holds from here
    end: int  # to the end of the enclosing arm, or of the file
    condition: Condition  # what the build may assume from `start` on
    error: int  # offset of the group's first `#error` directive
    opening: int  # offset of the `#if` that opens the group

    __match_args__ = ("start", "end", "condition", "error", "opening")

    def __init__(self, start: int, end: int, condition: Condition, error: int, opening: int) -> None:
        self.start = start
        self.end = end
        self.condition = condition
        self.error = error
        self.opening = opening

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"start={self.start!r}, " f"end={self.end!r}, "
                f"condition={self.condition!r}, " f"error={self.error!r}, " f"opening={self.opening!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.start, self.end, self.condition, self.error, self.opening)
        theirs = (other.start, other.end, other.condition, other.error, other.opening)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.condition, self.error, self.opening))


class _Open:
    start: int
    arms: list[int]  # offsets just after each arm's directive (where its region starts)
    error_only: bool
    errors: int  # `#error` lines in the current arm
    first_error: int
    last_end: int  # end of the last directive seen inside the group

    __match_args__ = ("start", "arms", "error_only", "errors", "first_error", "last_end")

    def __init__(
        self,
        start: int,
        arms: list[int],
        error_only: bool = True,
        errors: int = 0,
        first_error: int = -1,
        last_end: int = 0,
    ) -> None:
        self.start = start
        self.arms = arms
        self.error_only = error_only
        self.errors = errors
        self.first_error = first_error
        self.last_end = last_end

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"start={self.start!r}, " f"arms={self.arms!r}, "
                f"error_only={self.error_only!r}, " f"errors={self.errors!r}, "
                f"first_error={self.first_error!r}, " f"last_end={self.last_end!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.start, self.arms, self.error_only, self.errors, self.first_error, self.last_end)
        theirs = (other.start, other.arms, other.error_only, other.errors, other.first_error, other.last_end)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def _blank(text: bytes) -> bool:
    return not _COMMENT.sub(b"", text).replace(b"\\\n", b"").strip()


def find(view: Any, source: bytes) -> tuple[Assertion, ...]:
    """The assertions of the main file, in order (memoised on the view)."""
    memo = getattr(view, "__dict__", None)
    if memo is not None and memo.get("_assertions_of") is source:
        return memo["_assertions"]
    found = tuple(_scan(view, source))
    if memo is not None:
        memo["_assertions"], memo["_assertions_of"] = found, source
    return found


def _scan(view: Any, source: bytes) -> list[Assertion]:
    out: list[tuple[int, Condition, int, int, int]] = []  # (start, condition, error, opening, depth)
    ends: dict[int, int] = {}  # depth -> where the enclosing arm of assertions at that depth ends
    stack: list[_Open] = []
    pending: list[int] = []  # indexes into `out` whose end is not known yet
    for d in getattr(view, "directives", ()):
        if d.start >= len(source) or d.keyword == "prelude":
            continue
        top = stack[-1] if stack else None
        if top is not None and not _blank(source[top.last_end:d.start]):
            top.error_only = False
        k = d.kind
        if k in _OPEN:
            if top is not None:
                top.error_only = False
            stack.append(_Open(d.start, [d.end], last_end=d.end))
            continue
        if top is None:
            continue
        if k == "error":
            top.errors += 1
            top.first_error = d.start if top.first_error < 0 else top.first_error
        elif k in _NEXT or k == "endif":
            top.error_only = top.error_only and top.errors > 0 and k != "else"
            top.errors = 0
            # this arm of the enclosing group ends here: assertions made inside it stop
            depth = len(stack)
            for i in [i for i in pending if out[i][4] == depth]:
                ends[i] = d.start
                pending.remove(i)
            if k == "endif":
                stack.pop()
                if top.error_only:
                    arms = [view.branch_at(at).own for at in top.arms]
                    node = conj(negate(c.node) for c in arms)
                    text = " && ".join(f"!({c})" for c in arms)
                    out.append((d.end, Condition(node, text), top.first_error, top.start, len(stack)))
                    pending.append(len(out) - 1)
            else:
                top.arms.append(d.end)
        else:
            top.error_only = False
        if stack:
            stack[-1].last_end = d.end
    return [Assertion(start, ends.get(i, len(source)), cond, error, opening)
            for i, (start, cond, error, opening, _) in enumerate(out)]


def in_effect(view: Any, offset: int) -> list[Condition]:
    """The conditions the assertions before `offset` let the build assume there."""
    found = getattr(view, "__dict__", {}).get("_assertions", ())
    return [a.condition for a in found if a.start <= offset < a.end]


def failing_on_target(view: Any, source: bytes, has: Any) -> list[tuple[int, int, list[str]]]:
    """Assertions whose `#error` the target reaches, on feature or extension names it lacks:
    (start, end) of the `#error` line and those names. `has(name)` answers for the target."""
    from ..features import EXTENSIONS, FEATURES

    out = []
    by_start = {d.start: d for d in getattr(view, "directives", ())}
    for a in find(view, source):
        error, opening = by_start.get(a.error), by_start.get(a.opening)
        if error is None or opening is None or view.active_at(error.start) is not True:
            continue
        words = [opening.name] if opening.name else re.findall(r"[A-Za-z_]\w*", opening.args)
        missing = [w for w in dict.fromkeys(words) if (w in FEATURES or w in EXTENSIONS) and not has(w)]
        if missing:
            out.append((error.start, error.end, missing))
    return out
