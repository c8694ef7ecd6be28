"""Conversions that need the generic address space, though nothing spells `generic`.

In OpenCL C 2.0, and in 3.0 with `__opencl_c_generic_address_space`, a pointer whose pointee
has no address space points into the generic space, which holds `__global`, `__local` and
`__private` (spec 6.7.5, "generic"). Without the feature the same pointer points to
`__private` (6.7.7), so `int *p = g;`, `(int *)g` and `helper(g)` with a `global int *g`
are errors there. Which conversions those are is exactly what the address-space analysis
(analysis/addrspace) finds for a target without the feature and does not find for the same
target with it: that difference is the use, so no case list is kept here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import cache

from tree_sitter import Tree

from ..addrspace import analyse
from ..features import DNF, GENERIC, V2_0
from ..findings import Finding
from ..model import SemanticModel
from ..model.walk import in_ranges
from ..target import Target

# The conversion findings: an initialization or assignment, a cast, an argument.
_CONVERSIONS = frozenset({"CL101", "CL102", "CL114"})
NEEDS_GENERIC: DNF = ((GENERIC,),)


def _pair(target: Target, portability: bool) -> tuple[Target, Target] | None:
    """(without the feature, with it) for the question the mode asks; None when moot."""
    if portability:
        return _portability_pair()
    if target.version < V2_0 or target.has(GENERIC) or target.version == V2_0:
        return None  # before 2.0 it cannot exist (CL1xx says so); 2.0 always has it
    return target, target.apply_overrides(f"+{GENERIC}")


@cache
def _portability_pair() -> tuple[Target, Target]:
    """CL3.0 with every feature, without and with the generic space: a fixed pair, asked on
    every keystroke (building the first costs ~0.1 ms)."""
    full = Target.preset("CL3.0-all")
    return full.apply_overrides(f"-{GENERIC}"), full


def _conversions(tree: Tree, source: bytes, target: Target, expander: Callable[..., object] | None,
                 focus: list[tuple[int, int]] | None) -> set[tuple[int, int, str]]:
    model = SemanticModel(tree, source, target, macro_expander=expander)
    return {(f.start, f.end, f.message) for f in analyse(model, focus) if f.code in _CONVERSIONS}


def conversion_spans(findings: Iterable[Finding]) -> set[tuple[int, int]]:
    """Where an address-space analysis (of the lint's own model, in its focus: an incremental
    run asks about the functions it re-analyses, not the whole file) found a conversion error."""
    return {(f.start, f.end) for f in findings if f.code in _CONVERSIONS}


def generic_conversions(tree: Tree, source: bytes, target: Target, portability: bool,
                        expander: Callable[..., object] | None = None,
                        candidates: Callable[[], set[tuple[int, int]]] | None = None,
                        focus: list[tuple[int, int]] | None = None) -> list[tuple[int, int, str]]:
    """(start, end, what is converted) for each conversion valid only with the generic space.
    With `focus` (an incremental run's ranges), those that start in it: the incremental
    driver takes the others from its cache.

    `candidates()`: the conversion errors of a model where unqualified pointers are
    `__private` (the lint's own target in portability mode, 1.2, or a target without the
    feature); a file with none has nothing to find, and two models are not built for it."""
    pair = _pair(target, portability)
    if pair is None or (candidates is not None and not candidates()):
        return []
    try:
        without, with_it = (_conversions(tree, source, t, expander, focus) for t in pair)
        found_with = {(s, e) for s, e, _ in with_it}
    except RecursionError:
        return []
    return sorted((s, e, m) for s, e, m in without if (s, e) not in found_with and in_ranges(focus, s))
