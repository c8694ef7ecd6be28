"""Held-out cases of test_mako_closer_scan.py (crc32 of the name % 3 == 0), written with the
tune cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_mako_closer_scan import check


def test_percent_at_text_end() -> None:
    assert not check(b"int r = a %")


def test_percent_tab_endfor() -> None:
    assert check(b"%\t \tendfor")
