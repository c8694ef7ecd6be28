"""Held-out cases of test_definitions_in.py (crc32 of the name % 3 == 0), written with the
tune cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_definitions_in import SOURCE, model, names


def test_focus_on_the_last() -> None:
    assert names(model(), [(SOURCE.index(b"kernel"), len(SOURCE) + 1)]) == ["k"]


def test_start_byte_exactly_at_range_end() -> None:
    at = SOURCE.index(b"float c")
    assert names(model(), [(at - 10, at)]) == []


def test_three_ranges() -> None:
    got = names(model(), [(0, 1), (SOURCE.index(b"float"), SOURCE.index(b"float") + 1), (len(SOURCE), len(SOURCE) + 1)])
    assert got == ["a", "c"]
