"""Pointers walked by a loop to an end pointer, for the race check (races rounds 11, 12):

    global int *p = a + 4 * lid, *end = p + 4;
    while (p < end) { *p = lid; p += 1; }
    for (global int *p = a + lid; p < a + 32; p++) { ... }

is read as a loop over its passes: at pass `j` the pointer is its start plus `j` steps
(frames.Frame, as a `for` counter's passes are; a use after the step in the same pass, one
more), and the loop's condition holds where that place is still short of the end (check.py
evaluates it on the two pointers' offsets).

Only where that reading is exact: the loop is at the function body's top level, its condition
compares the pointer (`<`, `<=`, `!=`) with something else, the step (`p++`, `p += k`) is a
statement at the top level of a `while`'s block (or a `for`'s update) and the only change of
the pointer in the loop, and nothing in the block may skip the step (`continue` in a `while`,
`goto`). A `break` or `return` under a test of loaded data (`if (*p < 0) break;`) may leave
early: some input never takes it, and the passes before it are as read; any other is not
followed (a test of the work-item or the pass would stop some work-items' walks for good,
which later passes do not see).
"""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.syntax import walk
from cllint.analysis.uniformity.names import Names

_COMPARES = frozenset({"<", "<=", "!="})
_EXITS = frozenset({"break_statement", "return_statement"})  # (leave the walk: `_data_exit` only)


class Walk:
    """A `while` loop walking one pointer: the loop, its condition, the pointer's key and its
    step statement (an `expression_statement`)."""

    __slots__ = ("loop", "cond", "key", "step")

    def __init__(self, loop: Node, cond: Node, key: int, step: Node) -> None:
        self.loop, self.cond, self.key, self.step = loop, cond, key, step

    def __repr__(self) -> str:
        return f"Walk(loop={self.loop!r}, key={self.key!r})"


def _bare(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    return node


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def while_walks(body: Node, names: Names) -> dict[int, Walk]:
    """Loop node id -> the walk it makes, for the `while` and `for` loops at `body`'s top level."""
    out: dict[int, Walk] = {}
    for loop in body.named_children:
        if loop.type not in ("while_statement", "for_statement"):
            continue
        cond, block = loop.child_by_field_name("condition"), loop.child_by_field_name("body")
        if cond is None or block is None or block.type != "compound_statement":
            continue
        test = _bare(cond)
        if test.type != "binary_expression" or _text(test.child_by_field_name("operator")) not in _COMPARES:
            continue
        left = test.child_by_field_name("left")
        left = _bare(left) if left is not None else None
        v = names.var(left) if left is not None and left.type == "identifier" else None
        if v is None or not v.pointer or v.array or v.param_index is not None:
            continue
        stmts = [c for c in block.named_children if c.type != "comment"]
        if loop.type == "for_statement":
            update = loop.child_by_field_name("update")
            step = update if update is not None and _stepping(update, v.key, names) else None
            skips = frozenset({"goto_statement"})  # (`continue` runs the update)
            rest = stmts
        else:
            steps = [st for st in stmts if _steps(st, v.key, names)]
            step = steps[0] if len(steps) == 1 else None
            skips = frozenset({"continue_statement", "goto_statement"})
            rest = [st for st in stmts if st is not step]
        if step is None or any(n.type in skips or n.type in _EXITS and not _data_exit(n, block) for n in walk(block)):
            continue
        if any(_changes(n, v.key, names) for s in rest for n in walk(s)):
            continue
        out[loop.id] = Walk(loop, test, v.key, step)
    return out


def _data_exit(leave: Node, block: Node) -> bool:
    """`if (test) break;` (or `return;`) at the top level of `block`, `test` reading memory."""
    st = leave
    if st.parent is not None and st.parent.type == "compound_statement" and st.parent.named_child_count == 1:
        st = st.parent
    cond_st = st.parent
    if cond_st is None or cond_st.type != "if_statement" or cond_st.parent != block \
            or cond_st.child_by_field_name("consequence") != st or cond_st.child_by_field_name("alternative"):
        return False
    if leave.type == "return_statement" and leave.named_child_count:
        return False
    test = cond_st.child_by_field_name("condition")
    return test is not None and any(n.type == "subscript_expression" or n.type == "pointer_expression"
                                    and _text(n.child_by_field_name("operator")) == "*" for n in walk(test))


def _steps(st: Node, key: int, names: Names) -> bool:
    """`p++;`, `++p;`, `p += k;` of the pointer `key`."""
    e = st.named_children[0] if st.type == "expression_statement" and st.named_child_count == 1 else None
    return e is not None and _stepping(e, key, names)


def _stepping(e: Node, key: int, names: Names) -> bool:
    """`p++`, `++p`, `p += k` of the pointer `key` (an expression)."""
    if e.type == "update_expression":
        target = e.child_by_field_name("argument")
        return "++" in _text(e) and target is not None and target.type == "identifier" \
            and (v := names.var(target)) is not None and v.key == key
    if e.type == "assignment_expression" and _text(e.child_by_field_name("operator")) == "+=":
        target = e.child_by_field_name("left")
        return target is not None and target.type == "identifier" and (v := names.var(target)) is not None \
            and v.key == key
    return False


def _changes(n: Node, key: int, names: Names) -> bool:
    if n.type == "assignment_expression":
        target = n.child_by_field_name("left")
    elif n.type == "update_expression":
        target = n.child_by_field_name("argument")
    elif n.type == "pointer_expression" and _text(n.child_by_field_name("operator")) == "&":
        target = n.child_by_field_name("argument")
    else:
        return False
    v = names.var(target) if target is not None and target.type == "identifier" else None
    return v is not None and v.key == key
