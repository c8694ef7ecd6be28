"""Held-out cases of test_block_declarator_scan.py (crc32 of the name % 3 == 0), written with
the tune cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_block_declarator_scan import check


def test_block_declarator_found() -> None:
    assert check(b"typedef int (^Block)(int);")


def test_vertical_tab_before_caret() -> None:
    assert check(b"int (\v^b)(void);")


def test_caret_without_paren() -> None:
    assert not check(b"^b; x ^ (y);")
