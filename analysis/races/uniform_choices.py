"""Conditions on a kernel's scalar arguments, for the race check: a pointer chosen on one (`p =
(it & 1) ? A : B`), and an ordinary guard that reads only them (`if (it & 1) A[g + 1] = g;`,
`if (mode == 2)`, `if ((it & 1) == 0) return;`, `switch (mode)`, `(it & 1) && l == 0`).

The argument is one value for the whole launch, but the check samples it (two unrelated
values, a race reported only where both show it): `it & 1` is odd in one sample and even in
the other, `mode == 2` false in both, so a race under either showed once or never and was not
reported. Such a guard is taken by every work-item or by none, so a race under it exists
whenever it can hold: each condition is read each way in turn (a switch: each of its labels,
and none of them), the same value at every access that tests the same condition (by its text),
so ping-pong buffers `src = (it & 1) ? A : B; dst = (it & 1) ? B : A`, or the two arms of one
`if`, never meet themselves. A condition nothing samples (`(FLIP & 1)` of a macro) is evaluated
as before.

A guard's condition is read both ways only where it reads arguments no other condition read
here reads (`it & 1` and `!(it & 1)`, `a > b` and `b > a` are sampled together, as before: read
apart they would take both), and that neither access's place reads (`if (n == 1) A[g * n]`: the
sample of `n` would not satisfy the reading).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from cllint.analysis.races.accesses import Access
from cllint.analysis.races.evaluate import Env
from cllint.analysis.syntax import walk

MAX_CHOSEN = 3  # conditions read each way at once
MAX_LABELS = 8  # of a switch read label by label
MAX_DEPTH = 4  # definitions followed to find what an access's place reads
_SPACE = re.compile(rb"\s+")
BOTH = (True, False)
Reading = tuple[bytes, tuple]  # a condition's key and the values it is read as in turn


def choice_conditions(frame, accesses: tuple[Access, ...]) -> list[Reading]:  # noqa: ANN001
    """The conditions the accesses' guards test that read only the kernel's scalar arguments
    (never assigned), each once by its text, with the values each is read as: a pointer's
    choice (`?:`, an if/else), an ordinary guard, a switch's, a conjunct of a guard's `&&`."""
    chosen = {c.id for c, _, _ in frame.choices.values()}
    choices: dict[bytes, frozenset[int]] = {}  # condition -> the arguments it reads
    guards: dict[bytes, tuple[frozenset[int], tuple]] = {}
    for acc in accesses:
        for g in acc.guards:
            if g.ev is not None or g.cond is None:
                continue  # (a helper's own guard: its names are not the kernel's)
            if not g.cases and (_conditional(g.cond) or g.cond.id in chosen):
                key = condition_key(g.cond)
                if key not in choices and (read := _on_arguments(frame, g.cond)):
                    choices[key] = read
                continue
            for part in _conjuncts(g.cond) if not g.cases else [g.cond]:
                key = condition_key(part)
                if key in guards or (read := _on_arguments(frame, part)) == frozenset():
                    continue
                values = _labels(frame, g.cond) if g.cases else BOTH
                if values:
                    guards[key] = (read, values)
    read_by = [k for keys in choices.values() for k in keys]
    if len(choices) > MAX_CHOSEN or len(read_by) != len(set(read_by)):
        return []  # two choices on one argument (`it & 1`, `it % 2 == 1`): sampled together, as before
    out: list[Reading] = [(k, BOTH) for k in choices]
    placed = _place_reads(frame, accesses)
    for key, (read, values) in guards.items():
        others = [r for k, r in choices.items() if k != key] + [r for k, (r, _) in guards.items() if k != key]
        if key in choices or read & placed or any(read & r for r in others) or len(out) >= MAX_CHOSEN:
            continue  # sampled, as before
        out.append((key, values))
    return out


def condition_key(cond: Node) -> bytes:
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    return _SPACE.sub(b"", cond.text or b"")


def forced_value(forced: dict[bytes, object], cond: Node, cases: bool) -> object:
    """The value a reading gives `cond` (a switch's: the value switched on); for an `&&` whose
    conjuncts are read, 0 where one reads false, else the conjuncts not read (a list, to be
    evaluated); None where nothing of it is read."""
    got = forced.get(condition_key(cond))
    if got is not None or cases:
        return got
    parts = _conjuncts(cond)
    if len(parts) < 2:
        return None
    read = [forced.get(condition_key(p)) for p in parts]
    if all(r is None for r in read):
        return None
    if any(r is False for r in read):
        return 0
    return [p for p, r in zip(parts, read) if r is None]


def _conjuncts(cond: Node) -> list[Node]:
    """`a && b && c` (parentheses allowed): its operands; otherwise `[cond]`."""
    while cond.type == "parenthesized_expression" and cond.named_child_count == 1:
        cond = cond.named_children[0]
    op = cond.child_by_field_name("operator") if cond.type == "binary_expression" else None
    if op is None or op.type != "&&":
        return [cond]
    left, right = cond.child_by_field_name("left"), cond.child_by_field_name("right")
    return _conjuncts(left) + _conjuncts(right) if left is not None and right is not None else [cond]


def _labels(frame, cond: Node) -> tuple:  # noqa: ANN001
    """A switch on `cond`: its labels' values and one that is none of them; () where a label is
    not a constant or there are too many."""
    switch = cond.parent
    body = switch.child_by_field_name("body") if switch is not None and switch.type == "switch_statement" else None
    if body is None:
        return ()
    env = Env((0, 0, 0), (1, 1, 1), (0, 0, 0))
    values = []
    for case in body.named_children:
        label = case.child_by_field_name("value") if case.type == "case_statement" else None
        if label is not None:
            v = frame.ev.value(label, env)
            if not isinstance(v, int) or isinstance(v, bool):
                return ()
            values.append(v)
    if not values or len(values) > MAX_LABELS:
        return ()
    return (*dict.fromkeys(values), min(values) - 1)


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


def _place_reads(frame, accesses: tuple[Access, ...]) -> set[int]:  # noqa: ANN001
    """The kernel's variables the accesses' places read (their indices, offsets and the calls
    they are made through), through the definitions of what they name."""
    roots = [n for acc in accesses for n in (*acc.indices, *(o[1] for o in acc.offset), *acc.roots)]
    seen: set[int] = set()
    todo = [(n, 0) for n in roots]
    while todo:
        node, depth = todo.pop()
        for n in walk(node):
            v = frame.names.var(n) if n.type == "identifier" else None
            if v is None or v.key in seen:
                continue
            seen.add(v.key)
            d = frame.defs.get(v.key)
            if d is not None and depth < MAX_DEPTH:
                todo.append((d, depth + 1))
    return seen
