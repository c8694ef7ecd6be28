"""Reading a broken revision as a fresh parse reads it, at the cost of its damaged items.

tree-sitter's error recovery depends on the old tree an incremental parse reuses: an item with
a syntax error can come out otherwise than a fresh parse of the same text reads it (issue 33).
Reparsing with every node of the damaged top-level items marked changed, and every other item
reused, reads as the fresh parse does: `bench/partial_reparse.py` finds no difference in
thousands of broken revisions of corpus files (typed statements and hostile edits), at a
fraction of the fresh parse's cost when the damage is local. Past half the file a fresh parse
is cheaper than an incremental one over the same bytes, so that is what runs there.
"""

from __future__ import annotations

from tree_sitter import Node, Parser, Point, Tree

# Items are the children of these: the file's own, and those of a conditional block that
# wraps most of a file (`#ifndef GUARD ... #endif`, `#ifdef cl_khr_fp64 ... #endif`).
_CONTAINERS = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else",
                         "preproc_elif", "preproc_elifdef"})
FRESH_SHARE = 0.5  # damage over this share of the file: a fresh parse


def _damaged(node: Node) -> bool:
    return node.has_error or node.is_error or node.is_missing


def damaged_span(tree: Tree) -> tuple[int, int] | None:
    """Bytes from the first to the last damaged item, descending into a conditional block that
    holds the only damaged item; None when the tree has no error."""
    node = tree.root_node
    while True:
        bad = [k for k in node.children if _damaged(k)]
        if not bad:
            return (node.start_byte, node.end_byte) if _damaged(node) else None
        if len(bad) == 1 and bad[0].type in _CONTAINERS and not bad[0].is_error:
            node = bad[0]
            continue
        return bad[0].start_byte, bad[-1].end_byte


def point_at(text: bytes, offset: int) -> Point:
    """The (row, column in bytes) of `offset` in `text`, as tree-sitter's edits take it."""
    return Point(text.count(b"\n", 0, offset), offset - (text.rfind(b"\n", 0, offset) + 1))


def point_after(text: bytes, known: int, at: Point, offset: int) -> Point:
    """`point_at(text, offset)` for `offset >= known`, given `at`, the point of `known`: only
    the bytes between are read (counting one byte is a plain loop: ~50 us per 50 KB of
    prefix, a few times a keystroke, issue 32)."""
    line = text.rfind(b"\n", known, offset)
    if line < 0:
        return Point(at.row, at.column + offset - known)
    return Point(at.row + text.count(b"\n", known, offset), offset - (line + 1))


def reparse_fresh(parser: Parser, tree: Tree, text: bytes) -> Tree:
    """`text` read as a fresh parse reads it, reusing `tree` (its incremental tree) outside the
    damaged items. `tree` is left as it was."""
    span = damaged_span(tree)
    if span is None or span[1] - span[0] > FRESH_SHARE * len(text):
        return parser.parse(text)
    start, end = span
    marked = tree.copy()
    # A zero-length change over the span: its nodes count as changed, so none is reused.
    first = point_at(text, start)
    last = point_after(text, start, first, end)
    marked.edit(start_byte=start, old_end_byte=end, new_end_byte=end, start_point=first,
                old_end_point=last, new_end_point=last)
    return parser.parse(text, marked)
