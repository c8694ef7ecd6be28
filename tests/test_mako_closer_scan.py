"""A Mako closer (`% endif`) looked for from each `%` (memchr), the pattern's own scan only
past 64 of them: the scan tried every byte of darktable's basic.cl (0.1 ms each keystroke) for
two `%`s (issue 32, session 20). Same answers as the pattern. Written before the code; the
held-out third (crc32 % 3 == 0) is in test_mako_closer_scan_heldout.py."""

from __future__ import annotations

import random

from cllint.analysis.source_kind import _MAKO_CLOSER, has_mako_closer


def check(text: bytes) -> bool:
    got = has_mako_closer(text)
    assert got == (_MAKO_CLOSER.search(text) is not None), text
    return got


def test_mako_closer_found() -> None:
    assert check(b"% if x:\nint a;\n% endif\n")


def test_modulo_then_endif_word() -> None:
    assert not check(b"int r = a % b;\n#endif\n")


def test_endwhile_glued_word() -> None:
    assert not check(b"%endwhilex") and check(b"%endwhile x")


def test_many_percents_fall_back() -> None:
    assert check(b"x = a % b;\n" * 100 + b"%\tendfor\n")
    assert not check(b"x = a % b;\n" * 100)


def test_random_texts_as_the_closer() -> None:
    rng = random.Random(32)
    pieces = [b"%", b" ", b"\t", b"end", b"if", b"for", b"while", b"x", b"\n", b"_"]
    for _ in range(5000):
        check(b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 9))))
