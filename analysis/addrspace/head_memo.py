"""A function head's address-space findings carried from the last lint of the same file.

`DeclarationChecks._kernel` and `_function_declarators` read a definition's head against the
file-level declarations, the macros and pragmas before it, and the options: never its body.
While a keystroke edits one body, the rest of the file is the last tree's (toplevel.items_of:
every other item carried over, same text) and so is that head (same text and node count):
its findings are the last lint's. A keystroke re-read the edited kernel's head for them (~0.5
ms of darktable's basic.cl, issue 32).

Kept per item of the tree (`Items.derived`), only for an editor's focused run, and only when
every finding lies before the body (after it, offsets move with the edit).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from cllint.analysis.toplevel import Items

from ..findings import Finding

_FAMILY = "addrspace.heads"

# One head's findings: (phase, head text, head node count, start, options key) -> findings
Record = tuple[bytes, int, int, Any, list[Finding]]


class HeadMemo:
    """What one lint carries over from the last: `items` are the tree's matched items, `key`
    what besides the file's text the findings depend on (target, mode, macros, headers)."""

    def __init__(self, items: Items, key: Any) -> None:
        self.items = items
        self.key = key
        self.mine: dict[tuple[str, int], Record] = items.derived.setdefault(_FAMILY, {})
        prev = items.previous.get(_FAMILY) if items.previous is not None else None
        # The last tree's records stand only where nothing but one definition changed.
        self.prev: dict[tuple[str, int], Record] | None = prev if len(items.fresh) <= 1 else None

    def run(self, phase: str, item: Node, out: list[Finding], check: Callable[[], None]) -> None:
        """`check()` appends `item`'s findings of `phase` to `out`; or the last lint's are."""
        body = item.child_by_field_name("body") if item.type == "function_definition" else None
        k = self._index(item)
        if body is None or k is None:
            check()
            return
        head = self.items.source[item.start_byte:body.start_byte]
        count = item.descendant_count - body.descendant_count
        fresh = self.items.fresh
        old = self.prev.get((phase, k)) if self.prev is not None and (not fresh or fresh[0] == k) else None
        if old is not None and old[0] == head and old[1] == count and old[2] == item.start_byte \
                and old[3] == self.key:
            out.extend(old[4])
            self.mine[(phase, k)] = old
            return
        n = len(out)
        check()
        found = out[n:]
        if all(_before(f, body.start_byte) for f in found):
            self.mine[(phase, k)] = (head, count, item.start_byte, self.key, found)

    def _index(self, item: Node) -> int | None:
        starts = self.items.starts
        k = bisect_left(starts, item.start_byte)
        if k < len(starts) and starts[k] == item.start_byte and self.items.nodes[k] == item:
            return k
        return None


def _before(f: Finding, end: int) -> bool:
    """Every offset of the finding (its span, notes, fix) lies before `end`."""
    if f.end > end or any(e > end for _, e, _ in f.notes):
        return False
    return f.fix is None or all(e.end <= end for e in f.fix.edits)
