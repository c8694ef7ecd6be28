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
# what a condition on arguments alone never holds: calls (work-item queries), loads, assignments
_NOT_UNIFORM = frozenset({"call_expression", "subscript_expression", "pointer_expression", "field_expression",
                          "assignment_expression", "update_expression"})


def choice_conditions(frame, accesses: tuple[Access, ...]) -> list[Reading]:  # noqa: ANN001
    """The conditions the accesses' guards test that read only the kernel's scalar arguments
    (never assigned), each once by its text, with the values each is read as: a pointer's
    choice (`?:`, an if/else), an ordinary guard, a switch's, a conjunct of a guard's `&&`."""
    chosen = {c.id for c, _, _ in frame.choices.values()}
    choices: dict[bytes, frozenset[int]] = {}  # condition -> the arguments it reads
    guards: dict[bytes, tuple[frozenset[int], tuple]] = {}
    for acc in accesses:
        for g in acc.guards:
            if g.cond is None:
                continue
            if g.ev is None and not g.cases and (_conditional(g.cond) or g.cond.id in chosen):
                key = condition_key(g.cond)
                if key not in choices and (read := _on_arguments(frame, g.cond)):
                    choices[key] = read
                continue
            for part in _conjuncts(g.cond) if not g.cases else [g.cond]:
                got = kernel_terms(frame, part, g.ev)
                if got is None or got[0] in guards:
                    continue
                values = _labels(g.ev or frame.ev, g.cond) if g.cases else BOTH
                if values:
                    guards[got[0]] = (got[1], values)
    read_by = [k for keys in choices.values() for k in keys]
    if len(choices) > MAX_CHOSEN or len(read_by) != len(set(read_by)):
        return []  # two choices on one argument (`it & 1`, `it % 2 == 1`): sampled together, as before
    out: list[Reading] = [(k, BOTH) for k in choices]
    placed = _place_reads(frame, accesses) if guards else set()  # (only asked where a guard is a candidate)
    for key, (read, values) in guards.items():
        others = [r for k, r in choices.items() if k != key] + [r for k, (r, _) in guards.items() if k != key]
        if key in choices or read & placed or any(read & r for r in others) or len(out) >= MAX_CHOSEN:
            continue  # sampled, as before
        out.append((key, values))
    return out


def condition_key(cond: Node) -> bytes:
    return condition_key_of(_bare(cond).text or b"")


def condition_key_of(text: bytes) -> bytes:
    text = _SPACE.sub(b"", text)
    while text.startswith(b"(") and text.endswith(b")") and _balanced(text[1:-1]):
        text = text[1:-1]
    return text


def _balanced(text: bytes) -> bool:
    depth = 0
    for c in text:
        depth += (c == 40) - (c == 41)  # `(`, `)`
        if depth < 0:
            return False
    return depth == 0


def _bare(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def kernel_terms(frame, cond: Node, ev=None, depth: int = 0) -> tuple[bytes, frozenset[int]] | None:  # noqa: ANN001
    """`cond`'s key in the kernel's terms and the kernel's scalar arguments it reads, where it
    reads nothing else (never assigned); None otherwise. In a helper (`ev`, its frame's
    evaluator), a parameter the call binds is read as the caller's argument (`if (it & 1)` in
    `put(A, g, it)` is the kernel's `it&1`; of `put(A, g, !flag)`, `(!flag)&1`)."""
    if ev is None:
        read = _on_arguments(frame, cond)
        return (condition_key(cond), read) if read else None
    params = getattr(ev, "params", None)
    if params is None or depth > MAX_DEPTH:
        return None
    text = cond.text or b""
    pieces: list[bytes] = []
    read: set[int] = set()
    at = cond.start_byte
    for n in walk(cond):
        if n.type in _NOT_UNIFORM:
            return None
        if n.type != "identifier":
            continue
        v = ev.names.var(n)
        if v is None:
            if ev.constant(n) is None:
                return None
            continue  # (a macro's constant)
        bound = params.get(v.key) if v.param_index is not None and not (v.pointer or v.array) else None
        if bound is None:
            return None
        caller, arg = bound
        inner = kernel_terms(frame, arg, caller if caller is not frame.ev else None, depth + 1)
        if inner is None:
            return None
        arg_key = inner[0] if _bare(arg).type == "identifier" else b"(" + inner[0] + b")"
        pieces += [text[at - cond.start_byte:n.start_byte - cond.start_byte], arg_key]
        at = n.end_byte
        read |= inner[1]
    pieces.append(text[at - cond.start_byte:])
    return (condition_key_of(b"".join(pieces)), frozenset(read)) if read else None


def forced_value(forced: dict[bytes, object], cond: Node, cases: bool, key=None) -> object:  # noqa: ANN001
    """The value a reading gives `cond` (a switch's: the value switched on); for an `&&` whose
    conjuncts are read, 0 where one reads false, else the conjuncts not read (a list, to be
    evaluated); None where nothing of it is read. `key(node)`: a condition's key (by default
    its text: the kernel's own)."""
    key = key or condition_key
    got = forced.get(key(cond))
    if got is not None or cases:
        return got
    parts = _conjuncts(cond)
    if len(parts) < 2:
        return None
    read = [forced.get(key(p)) for p in parts]
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


def _labels(ev, cond: Node) -> tuple:  # noqa: ANN001
    """A switch on `cond` (read by `ev`): its labels' values and one that is none of them; ()
    where a label is not a constant or there are too many."""
    switch = cond.parent
    body = switch.child_by_field_name("body") if switch is not None and switch.type == "switch_statement" else None
    if body is None:
        return ()
    env = Env((0, 0, 0), (1, 1, 1), (0, 0, 0))
    values = []
    for case in body.named_children:
        label = case.child_by_field_name("value") if case.type == "case_statement" else None
        if label is not None:
            v = ev.value(label, env)
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
        if n.type in _NOT_UNIFORM:
            return frozenset()  # (`it == get_local_id(0)`, `flag[0]`: not the argument's alone)
        if n.type != "identifier":
            continue
        v = frame.names.var(n)
        if v is None:
            if frame.ev.constant(n) is None:
                return frozenset()  # (a name not known to be a constant: `tid` of a macro)
            continue
        if v.param_index is None or v.pointer or v.array or v.key in frame.moved:
            return frozenset()
        seen.add(v.key)
    return frozenset(seen)


def _place_reads(frame, accesses: tuple[Access, ...]) -> set[int]:  # noqa: ANN001
    """The kernel's variables the accesses' places read (their indices and offsets), through
    the definitions of what they name and, in a helper, through the arguments its parameters
    are bound to (a helper not read so: every name of the call it is made through)."""
    todo: list[tuple[Node, object, int]] = []  # (node, its evaluator: None the kernel's, depth)
    for acc in accesses:
        ev = None if acc.ev is None or acc.ev is frame.ev else acc.ev
        todo += [(n, ev, 0) for n in acc.indices]
        todo += [(n, None if o is frame.ev else o, 0) for o, n, _ in acc.offset]
        if ev is not None and getattr(ev, "params", None) is None or any(
                o is not frame.ev and getattr(o, "params", None) is None for o, _, _ in acc.offset):
            todo += [(n, None, 0) for n in acc.roots]
    seen: set[int] = set()
    visited: set[tuple[int, int]] = set()
    while todo:
        node, ev, depth = todo.pop()
        if (node.id, id(ev)) in visited or depth > MAX_DEPTH:
            continue
        visited.add((node.id, id(ev)))
        names, defs = (frame.names, frame.defs) if ev is None else (ev.names, ev.defs)  # type: ignore[attr-defined]
        for n in walk(node):
            v = names.var(n) if n.type == "identifier" else None
            if v is None:
                continue
            if ev is None:
                seen.add(v.key)
            bound = getattr(ev, "params", {}).get(v.key) if ev is not None else None
            if bound is not None:
                todo.append((bound[1], None if bound[0] is frame.ev else bound[0], depth + 1))
            elif (d := defs.get(v.key)) is not None:
                todo.append((d, ev, depth + 1))
    return seen
