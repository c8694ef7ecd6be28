"""Pointers chosen on a kernel's scalar argument, for the race check: `p = (it & 1) ? A : B`.

The argument is one value for the whole launch, but the check samples it (two unrelated
values, a race reported only where both show it): `it & 1` is odd in one sample and even in
the other, so a race through either arm showed in one round only and was never reported.
Either arm is possible, so each choice condition is read as true and as false in turn, the
same value at every access that tests the same condition (ping-pong buffers `src = (it & 1) ?
A : B; dst = (it & 1) ? B : A` never meet themselves). A condition nothing samples (`(FLIP & 1)`
of a macro) is evaluated as before.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from cllint.analysis.races.accesses import Access
from cllint.analysis.syntax import walk

MAX_CHOSEN = 3  # conditions read both ways at once (2^3 readings)
_SPACE = re.compile(rb"\s+")


def choice_conditions(frame, accesses: tuple[Access, ...]) -> list[bytes]:  # noqa: ANN001
    """The conditions of the kernel's own pointer choices the accesses' guards test that read
    only the kernel's scalar arguments (never assigned), each once, by its text."""
    chosen = {c.id for c, _, _ in frame.choices.values()}
    out: dict[bytes, frozenset[int]] = {}  # condition -> the arguments it reads
    for acc in accesses:
        for g in acc.guards:
            if g.ev is not None or g.cases or g.cond is None:
                continue
            if not (_conditional(g.cond) or g.cond.id in chosen):
                continue
            key = condition_key(g.cond)
            if key not in out and (read := _on_arguments(frame, g.cond)):
                out[key] = read
    read_by = [k for keys in out.values() for k in keys]
    if len(out) > MAX_CHOSEN or len(read_by) != len(set(read_by)):
        return []  # two conditions on one argument (`it & 1`, `it % 2 == 1`): sampled together, as before
    return list(out)


def condition_key(cond: Node) -> bytes:
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    return _SPACE.sub(b"", cond.text or b"")


def _conditional(cond: Node) -> bool:
    """`cond` is the condition of a `?:` (a pointer's choice: accesses.when_guard)."""
    p = cond.parent
    return p is not None and p.type == "conditional_expression" and p.child_by_field_name("condition") == cond


def _on_arguments(frame, cond: Node) -> frozenset[int]:  # noqa: ANN001
    """The kernel's scalar arguments `cond` reads, where every variable it names is one the
    body never assigns (the rest: macros' constants); empty otherwise."""
    seen: set[int] = set()
    for n in walk(cond):
        if n.type != "identifier":
            continue
        v = frame.names.var(n)
        if v is None:
            continue
        if v.param_index is None or v.pointer or v.array or v.key in frame.moved:
            return frozenset()
        seen.add(v.key)
    return frozenset(seen)
