"""Arms the preprocessor drops where the file says so: what analyses may treat as not compiled.

`PreprocessorView.inactive_ranges()` lists every arm that is false with nothing more defined.
That is too many to ignore: `#if defined(IMG_7x7)` or `#if TILE > 1` in a file built with `-D`
is false here only because the host defines the name. An arm counts as *decided* dead only
when every name its conditions mention is one the file (`#define`/`#undef`), `-D`, the
compiler (reserved `__` names other than the target's) or, in target mode, the target speaks for.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from cllint.analysis.database import current
from cllint.analysis.preprocessor.view import _is_target_name
from cllint.analysis.lazy_re import lazy

DeadRanges = tuple[tuple[int, int], ...]

_NAME = lazy(r"[A-Za-z_]\w*")


def decided_dead_ranges(view: Any, portable: Mapping[str, str] | None = None) -> DeadRanges:
    """Sorted, merged byte ranges of the arms known to be dropped.

    `portable`: in portability mode (no target named), the predefined macros of the stand-in
    target the view was built for. No target decides then: version, feature and extension
    macros decide only where the file or `-D` defines them (a `-D` shows as a value the
    stand-in does not predefine)."""
    return _decided_ranges(view, portable, False)


def decided_live_ranges(view: Any, portable: Mapping[str, str] | None = None) -> DeadRanges:
    """Sorted, merged byte ranges of the arms known to be kept (`#if R == 1` with `R`
    defined above), outside the file's top level; `portable` as for `decided_dead_ranges`."""
    return _decided_ranges(view, portable, True)


def _decided_ranges(view: Any, portable: Mapping[str, str] | None, active: bool) -> DeadRanges:
    if view is None:
        return ()
    known, by_target = _known(view, portable)
    out: list[tuple[int, int]] = []
    for start, end, branch in view.regions:
        if branch.active is not active or branch.parent is None or start >= end \
                or not decided(branch, known, by_target):
            continue
        if out and out[-1][1] == start:
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return tuple(out)


# `_known`'s recent answers by the names the file defines: (macros, portable, known) each.
# The database's "decided.known". A keystroke asked it 2-3 times (syntax, barriers, races),
# each comparing the view's ~420 macros with the stand-in's (0.12 ms a call, issue 32).
_KNOWN_MAX = 64
_KNOWN_RECENT = 4


def _known(view: Any, portable: Mapping[str, str] | None) -> tuple[set[str] | frozenset[str], bool]:
    """The names the file, `-D` or (without `portable`) the target speak for, and whether the
    target does. Kept by content: a new view per keystroke has equal macros, compared at
    C speed, where recomputing loops over them in Python."""
    env = view.env.macros
    names = frozenset(view.defined_names())
    table = current().table("decided.known", _KNOWN_MAX)
    recent = table.get((names, portable is None))
    if recent is None:
        recent = table.put((names, portable is None), [])
    for macros, stand_in, known in recent:
        if (macros is env or macros == env) and (stand_in is portable or stand_in == portable):
            return known, portable is None
    if portable is None:
        known = frozenset(names | set(env))
    else:
        known = frozenset(names | {n for n, v in env.items() if portable.get(n) != v})
    recent.insert(0, (dict(env), None if portable is None else dict(portable), known))
    del recent[_KNOWN_RECENT:]
    return known, portable is None


def decided(branch: Any, known: set[str] | frozenset[str], by_target: bool = True) -> bool:
    """Every name the arm's conditions mention is one the file, `-D` or (with `by_target`) the
    target speaks for (`defined` aside), or one every OpenCL C compiler defines, asked only
    whether it is defined."""
    for c in branch.conditions:
        text = str(c)
        for name in _NAME.findall(text):
            if not (name == "defined" or name in known or (by_target and _is_target_name(name))
                    or _compiler_name(name) or (name in ALWAYS_DEFINED and _only_asked_defined(text, name))):
                return False
    return True


# Defined by every compiler for an OpenCL device, its value the device's (the OpenCL C
# specification's predefined macros: `__OPENCL_VERSION__` "must be defined"): `#ifndef
# __OPENCL_VERSION__` is code for another compiler (a header shared with CUDA or C++).
ALWAYS_DEFINED = frozenset({"__OPENCL_VERSION__"})


def _only_asked_defined(text: str, name: str) -> bool:
    """Whether each use of `name` in a condition's text is `defined(name)` or `defined name`."""
    uses = len(re.findall(rf"(?<!\w){name}(?!\w)", text))
    asked = len(re.findall(rf"\bdefined\s*(?:\(\s*{name}\s*\)|{name}(?!\w))", text))
    return uses == asked


def _compiler_name(name: str) -> bool:
    """A reserved name (`__cplusplus`, `__CUDACC__`) that is not the target's: the compiler
    alone defines those (clang-19's own are in its predefined macros), never a host's `-D`."""
    return name.startswith("__") and not _is_target_name(name)


def within(ranges: DeadRanges, offset: int) -> bool:
    """True when `offset` lies in one of `ranges`."""
    lo, hi = 0, len(ranges)
    while lo < hi:
        mid = (lo + hi) // 2
        if ranges[mid][1] <= offset:
            lo = mid + 1
        else:
            hi = mid
    return lo < len(ranges) and ranges[lo][0] <= offset
