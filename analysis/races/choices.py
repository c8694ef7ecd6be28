"""Private pointers chosen by an if/else, for the race check: `if (c) p = a; else p = b;`,
or `p = a;` at its declaration and `if (c) p = b;` after it. Each is read as `c ? a : b`
(frames.Frame.targets_of) where it is used: after the `if`, in the block that holds it.

Only where that reading is exact: the pointer is assigned nowhere else (no `&p`, no `p++`),
every use comes after the `if` in the `if`'s own block, and nothing the condition names
is assigned in the body (a loop counter whose loop holds the `if` aside: each pass chooses
afresh, and a use in the same pass sees the same counter).
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity.names import Names, VarInfo

_CHANGES = frozenset({"assignment_expression", "update_expression", "pointer_expression"})

# pointer key -> (condition, value where it holds, value where it does not)
Choice = tuple[Node, Node, Node]


def scalar_choices(body: Node, names: Names, counters: dict[int, tuple]) -> dict[int, Choice]:
    """Private integers chosen the same way (`if (lid & 1) i = 0; else i = lid;`), read as `c ?
    a : b` by the evaluator (round 12)."""
    return branch_choices(body, names, counters, _private_scalar)


def branch_choices(body: Node, names: Names, counters: dict[int, tuple],
                   chosen: Callable[[VarInfo], bool] | None = None) -> dict[int, Choice]:
    chosen = chosen or _private_pointer
    if not any(chosen(v) for v in names.variables):
        return {}  # the common kernel: no private pointer to choose
    stores: dict[int, list[Node]] = {}  # pointer key -> its plain `p = e` statements' values
    moved: set[int] = set()  # assigned: any variable, any way
    spoiled: set[int] = set()  # pointers changed some other way
    for n in nodes_of_kinds(body, _CHANGES):
        if n.type == "pointer_expression":
            if n.child_by_field_name("operator") is not None and n.child_by_field_name("operator").type == "&":
                arg = n.child_by_field_name("argument")
                v = names.var(arg) if arg is not None else None
                if v is not None:
                    spoiled.add(v.key)
                    moved.add(v.key)
            continue
        target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
        v = names.var(target) if target is not None and target.type == "identifier" else None
        if v is None:
            continue
        moved.add(v.key)
        op = n.child_by_field_name("operator")
        if n.type == "assignment_expression" and op is not None and op.type == "=" and chosen(v) \
                and n.parent is not None and n.parent.type == "expression_statement":
            stores.setdefault(v.key, []).append(n)
        else:
            spoiled.add(v.key)
    out: dict[int, Choice] = {}
    by_key = {v.key: v for v in names.variables}
    for key, assigns in stores.items():
        v = by_key.get(key)
        if v is None or key in spoiled or len(assigns) > 2:
            continue
        got = _choice(v, assigns)
        if got is None:
            continue
        stmt, choice = got
        if _uses_after(v, names, stmt, assigns) and _steady(choice[0], names, moved, counters, stmt):
            out[key] = choice
    return out


def _private_pointer(v: VarInfo) -> bool:
    return v.pointer and not v.array and v.param_index is None and not v.shared


def _private_scalar(v: VarInfo) -> bool:
    return not v.pointer and not v.array and v.param_index is None and not v.shared


def _choice(v: VarInfo, assigns: list[Node]) -> tuple[Node, Choice] | None:
    """The `if` that chooses and (condition, then-value, else-value)."""
    init = declared_value(v)
    arms = [_arm(a) for a in assigns]
    if any(x is None for x in arms):
        return None
    if len(assigns) == 2:
        (if1, then1), (if2, then2) = arms  # type: ignore[misc]
        if if1 != if2 or then1 == then2:
            return None
        a, b = (assigns[0], assigns[1]) if then1 else (assigns[1], assigns[0])
        return if1, (if1.child_by_field_name("condition"), a.child_by_field_name("right"),
                     b.child_by_field_name("right"))
    (stmt, then), = arms  # type: ignore[misc]
    if init is None or not then or stmt.child_by_field_name("alternative") is not None \
            or not init.end_byte <= stmt.start_byte:
        return None
    return stmt, (stmt.child_by_field_name("condition"), assigns[0].child_by_field_name("right"), init)


def _arm(assign: Node) -> tuple[Node, bool] | None:
    """The `if` whose arm `assign`'s statement is (itself, or a statement of the arm's
    braces), and whether it is the `then` arm."""
    stmt = assign.parent
    p = stmt.parent if stmt is not None else None
    if p is not None and p.type == "compound_statement":
        stmt, p = p, p.parent
    if p is not None and p.type == "else_clause":
        stmt, p = p, p.parent
    if p is None or p.type != "if_statement":
        return None
    if stmt == p.child_by_field_name("consequence"):
        return p, True
    if stmt == p.child_by_field_name("alternative") or stmt.type == "else_clause":
        return p, False
    return None


def declared_value(v: VarInfo) -> Node | None:
    """The value `v`'s declaration gives it (`= e`, `= {a, b}`), through the pointer and array
    declarators around its name; None without one."""
    d = v.decl.parent
    while d is not None and d.type in ("pointer_declarator", "array_declarator"):
        d = d.parent
    return d.child_by_field_name("value") if d is not None and d.type == "init_declarator" else None


def _uses_after(v: VarInfo, names: Names, stmt: Node, assigns: list[Node]) -> bool:
    """Every read of `v` comes after `stmt`, inside the block that holds it."""
    block = stmt.parent
    if block is None or block.type != "compound_statement":
        return False
    targets = {a.child_by_field_name("left").start_byte for a in assigns}
    for at, u in names.uses.items():
        if u is not v or at == v.key or at in targets:
            continue
        if not stmt.end_byte <= at < block.end_byte:
            return False
    return True


def _steady(cond: Node | None, names: Names, moved: set[int], counters: dict[int, tuple], stmt: Node) -> bool:
    """Nothing the condition names changes between the choice and the uses."""
    if cond is None:
        return False
    for n in walk(cond):
        if n.type != "identifier":
            continue
        u = names.var(n)
        if u is None or u.key not in moved:
            continue
        loop = counters[u.key][3] if u.key in counters else None
        if loop is None or not loop.start_byte <= stmt.start_byte < loop.end_byte:
            return False
    return True
