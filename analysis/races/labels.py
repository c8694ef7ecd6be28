"""Labels and `goto` for the race check's guards: who reaches a statement after a label.

A label every `goto` to which lies inside the label's own block (a *local* label) is reached by
every work-item that enters that block and does not leave it on the way: a jump forward to it
(`if (g & 1) goto done; ... done: A[0] = g;`) skips only the statements between, and a jump back
(`again: ...; if (++i < n) goto again;`, a loop) runs the statements again without losing anyone
(a work-item that loops forever makes no later access). So the label itself guards nothing, a
forward jump to it guards only the statements it skips (`if (c) goto L;` as an early exit up to
`L`), and a backward jump guards nothing after it. A label some `goto` reaches from outside its
block is not read: code under it stays unknown, as before.
"""

from __future__ import annotations

from math import inf

from tree_sitter import Node

from cllint.analysis.syntax import walk


def _name(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def _label_of(statement: Node) -> str:
    return _name(statement.child_by_field_name("label"))


def _function(node: Node) -> Node | None:
    while node is not None and node.type != "function_definition":
        node = node.parent
    return node


def _gotos(func: Node) -> list[Node]:
    text = func.text
    if text is not None and b"goto" not in text:
        return []
    return [n for n in walk(func) if n.type == "goto_statement"]


def _inside(node: Node, block: Node) -> bool:
    return block.start_byte <= node.start_byte and node.end_byte <= block.end_byte


def local_labels(block: Node) -> dict[str, int]:
    """Label -> index among `block`'s statements, of its labelled statements that no `goto`
    from outside `block` reaches (every jump to them starts inside the block)."""
    labelled = {_label_of(c): i for i, c in enumerate(block.named_children) if c.type == "labeled_statement"}
    if not labelled:
        return {}
    func = _function(block)
    if func is None:
        return {}
    for g in _gotos(func):
        name = _name(g.child_by_field_name("label"))
        if name in labelled and not _inside(g, block):
            del labelled[name]
    return labelled


def goto_target(s: Node) -> str | None:
    """The label of `if (c) goto L;` (braces allowed, no else), None for anything else."""
    if s.type != "if_statement" or s.child_by_field_name("alternative") is not None:
        return None
    cons = s.child_by_field_name("consequence")
    while cons is not None and cons.type == "compound_statement" and cons.named_child_count == 1:
        cons = cons.named_children[0]
    return _name(cons.child_by_field_name("label")) if cons is not None and cons.type == "goto_statement" \
        else None


def skipped_until(s: Node, at: int, labels: dict[str, int]) -> float | None:
    """How far past statement `at` (`s`) of a block work-items may skip because of the jumps
    `s` holds to the block's local labels: the index of the furthest forward label jumped to
    (statements before it may be skipped), or None where `s` jumps to none forward."""
    text = s.text
    if not labels or (text is not None and b"goto" not in text):
        return None
    until: float | None = None
    for n in walk(s):
        if n.type == "goto_statement":
            j = labels.get(_name(n.child_by_field_name("label")))
            if j is None:
                return inf  # a jump out of the block
            if j > at:
                until = max(until or 0, j)
    return until
