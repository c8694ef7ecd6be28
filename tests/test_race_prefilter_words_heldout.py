"""Held-out cases of test_race_prefilter_words.py (crc32 of the name % 3 == 0), written with
the tune cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_race_prefilter_words import check


def test_empty_range() -> None:
    text = b"__local int x;"
    assert not check(text, 4, 4)


def test_local_after_newline() -> None:
    assert check(b"int a;\nlocal int t[64];")
