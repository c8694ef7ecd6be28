"""A pointer argument chosen by `?:` or an if/else, for the race check's helpers: `put(c ? A :
B, g)`, or `p` of `global int *p = c ? A : B;` (or `if (c) p = A; else p = B;`) passed as
`bump(p)`. The helper is read once per choice, its parameter bound to that choice's target and
its accesses guarded by the caller's condition (`c` true for `A`, false for `B`), as a `?:`
written in the kernel's own access is (frames.Frame.targets_of).

Only where every choice is followed (a side not followed: which work-items take the other is
unknown) and at most MAX_ALTERNATIVES bindings in all: two chosen arguments are read together,
each pair of choices with both conditions, so `src`/`dst` picked by one flag keep their pairing.
"""

from __future__ import annotations

from itertools import product

from tree_sitter import Node

from cllint.analysis.races.accesses import Guard, when_guard
from cllint.analysis.races.frames import Frame, Target
from cllint.analysis.uniformity.names import Names

MAX_ALTERNATIVES = 4

# (parameter key -> the target it is bound to, the caller's guards under which it is)
Alternative = tuple[dict[int, Target], tuple[Guard, ...]]


def may_choose(arg: Node, caller: Frame) -> bool:
    """Whether `arg` may be a choice (`c ? A : B`, or a pointer chosen by an if/else or defined
    by a `?:` or a call): the cheap test before `Frame.targets_of`, asked for every argument."""
    while arg.type == "parenthesized_expression" and arg.named_child_count == 1:
        arg = arg.named_children[0]
    if arg.type == "conditional_expression":
        return True
    v = caller.names.var(arg) if arg.type == "identifier" else None
    if v is None or not v.pointer:
        return False
    d = caller.defs.get(v.key)
    return v.key in caller.choices or d is not None and d.type in ("conditional_expression", "call_expression",
                                                                   "parenthesized_expression")


def argument_choices(call: Node, names: Names, moved: set[int], caller: Frame, frame: Frame) -> list[Alternative]:
    """The bindings of the pointer parameters `frame` left unbound whose argument is a choice
    of the caller's, each with its guards; [] where there is none (or too many)."""
    args = call.child_by_field_name("arguments")
    passed = [a for a in (args.named_children if args else []) if a.type != "comment"]
    params = sorted((v for v in names.variables if v.param_index is not None), key=lambda v: v.param_index or 0)
    sides: list[list[tuple[int, Target, tuple]]] = []
    for v, arg in zip(params, passed):
        if not v.pointer or v.array or v.key in moved or v.key in frame.bound or v.key in frame.structs:
            continue
        picks = caller.targets_of(arg) if may_choose(arg, caller) else []
        if len(picks) < 2 or any(not when for _, when in picks):
            continue  # (one target, or a side with no condition: not a choice)
        sides.append([(v.key, t, when) for t, when in picks])
    if not sides:
        return []
    total = 1
    for s in sides:
        total *= len(s)
    if total > MAX_ALTERNATIVES:
        return []
    ev = None if caller.kernel else caller.ev  # (the kernel's guards are read by its own evaluator)
    out: list[Alternative] = []
    for combo in product(*sides):
        guards = tuple(when_guard(c, h).within(ev) for _, _, when in combo for c, h in when)
        out.append(({key: t for key, t, _ in combo}, guards))
    return out
