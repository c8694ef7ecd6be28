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
    out: list[bytes] = []
    for acc in accesses:
        for g in acc.guards:
            if g.ev is not None or g.cases or g.cond is None:
                continue
            if not (_conditional(g.cond) or g.cond.id in chosen):
                continue
            key = condition_key(g.cond)
            if key not in out and _on_arguments(frame, g.cond):
                out.append(key)
    return out[:MAX_CHOSEN] if len(out) <= MAX_CHOSEN else []


def condition_key(cond: Node) -> bytes:
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    return _SPACE.sub(b"", cond.text or b"")


def _conditional(cond: Node) -> bool:
    """`cond` is the condition of a `?:` (a pointer's choice: accesses.when_guard)."""
    p = cond.parent
    return p is not None and p.type == "conditional_expression" and p.child_by_field_name("condition") == cond


def _on_arguments(frame, cond: Node) -> bool:  # noqa: ANN001
    """Every variable `cond` names is a scalar argument of the kernel the body never assigns,
    and there is one (the rest: macros' constants)."""
    seen = False
    for n in walk(cond):
        if n.type != "identifier":
            continue
        v = frame.names.var(n)
        if v is None:
            continue
        if v.param_index is None or v.pointer or v.array or v.key in frame.moved:
            return False
        seen = True
    return seen
