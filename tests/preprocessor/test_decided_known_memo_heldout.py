"""Held-out cases of test_decided_known_memo.py (crc32 of the name % 3 == 0), written with
them, first run with them (issue 32, session 20)."""

from __future__ import annotations

from test_decided_known_memo import CL12, FILE, same_as_fresh


def test_define_typed_decides_an_arm() -> None:
    typed = b"#define X 1\n" + FILE
    before, after = same_as_fresh([(FILE, CL12, {}, True), (typed, CL12, {}, True)])
    assert not before[1] and after[1]  # the file now speaks for X: its arm is kept


def test_undef_typed_in_body() -> None:
    typed = FILE.replace(b"p[0] = 1;", b"p[0] = 1;\n#undef TILE\n")
    plain, undef, plain_again = same_as_fresh([(FILE, CL12, {}, False), (typed, CL12, {}, False),
                                               (FILE, CL12, {}, False)])
    assert plain == plain_again and undef[0] != plain[0]  # the file speaks for TILE: its arm dropped
