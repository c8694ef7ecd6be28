"""Whether a file can declare a block pointer (`(^`, spaces between allowed), found from its
carets: the pattern scan of every `(` cost 0.19 ms of darktable's basic.cl each keystroke, for
three XORs (issue 32, session 20). Same answers as the pattern. Written before the code;
held-out third (crc32 % 3 == 0) in test_block_declarator_scan_heldout.py."""

from __future__ import annotations

import random
import re

from cllint.analysis.addrspace.declarations import has_block_declarator

PATTERN = re.compile(rb"\(\s*\^")  # the check's pattern before session 20: the reference


def check(text: bytes) -> bool:
    got = has_block_declarator(text)
    assert got == (PATTERN.search(text) is not None), text
    return got


def test_xor_between_operands() -> None:
    assert not check(b"int x = a ^ b; y = (a) ^ (b);")


def test_paren_at_text_end() -> None:
    assert not check(b"x = a ^ b + (")


def test_carets_past_the_limit() -> None:
    assert check(b"x ^= 1;\n" * 200 + b"int (^bl)(void);")
    assert not check(b"x ^= 1;\n" * 200)


def test_two_carets_one_block() -> None:
    assert check(b"x = y ^ z; void (^ b)(int);")


def test_tab_then_caret() -> None:
    assert check(b"int (\t\n ^bl)(void);")


def test_random_texts_as_the_pattern_blocks() -> None:
    rng = random.Random(32)
    pieces = [b"(", b"^", b" ", b"\t", b"\n", b"\v", b"\f", b"\r", b"x", b")"]
    for _ in range(5000):
        check(b"".join(rng.choice(pieces) for _ in range(rng.randrange(0, 10))))
