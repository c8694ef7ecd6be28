"""Held-out case of test_point_after.py (crc32 of the name % 3 == 0), written with the tune
cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_point_after import check


def test_span_ending_after_newline() -> None:
    check(b"int a;\nint b;\n", 3, 7)  # the span ends just past its newline: column 0
