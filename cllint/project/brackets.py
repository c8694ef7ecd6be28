"""Bracket matching in host code read as text (no parser for C++ or Python hosts): the
bracket that closes one, and the one a closer closes, found by a regular expression over the
two bracket characters instead of a Python loop over every byte."""

from __future__ import annotations

from typing import Any

from cllint.analysis.lazy_re import lazy

_BRACES = lazy(rb"[{}]")
_PARENTHESES = lazy(rb"[()]")


def _pair(opening: int, closing: int) -> Any:  # a LazyPattern
    """The pattern of one of the two pairs hosts are read with: `{}` or `()`."""
    if (opening, closing) == (0x28, 0x29):
        return _PARENTHESES
    assert (opening, closing) == (0x7B, 0x7D), "braces or parentheses only"
    return _BRACES


def closing_of(text: bytes, at: int, opening: int = 0x7B, closing: int = 0x7D, limit: int | None = None) -> int | None:
    """The offset of the bracket closing the one at `at` (`{` and `}` unless told), looking at
    most `limit` bytes on; None when it is not closed there."""
    depth = 0
    end = len(text) if limit is None else min(len(text), at + limit)
    for m in _pair(opening, closing).finditer(text, at, end):
        if text[m.start()] == opening:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return None


def opening_before(text: bytes, end: int, opening: int = 0x7B, closing: int = 0x7D) -> int | None:
    """The offset of the bracket that the last closer before `end` closes; None if unmatched."""
    depth = 0
    for m in reversed(list(_pair(opening, closing).finditer(text, 0, end))):
        if text[m.start()] == closing:
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                return m.start()
    return None
