"""Held out (issue 32, session 18): the function table through matched items equals a
fresh read on edits the tune cases do not make."""

from __future__ import annotations

import random

from tree_sitter import Parser

from cllint.analysis.incremental import top_level_functions
from cllint.analysis.toplevel import items_of
from cllint.grammar import language

TWINS = b"""float twin(float x) { return x; }
float other(float x) { return x * x; }
float twin2(float x) { return x; }
kernel void k(global float *o) { o[0] = twin(other(twin2(2.0f))); }
"""


def _both(source: bytes, file: str):  # noqa: ANN202
    tree = Parser(language()).parse(source)
    return top_level_functions(tree, source, items=items_of(tree, source, file)), \
        top_level_functions(tree, source)


def test_a_body_edited_into_another_functions_text() -> None:
    _both(TWINS, "items-heldout-1.cl")
    edited = TWINS.replace(b"return x * x;", b"return x;")
    after, fresh = _both(edited, "items-heldout-1.cl")
    assert after == fresh
    assert [f.name for f in after] == [b"twin", b"other", b"twin2", b"k"]


def test_random_keystrokes_and_deletions_equal_a_fresh_read() -> None:
    rng = random.Random(32)
    text = TWINS
    for _ in range(120):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.6:
            text = text[:at] + rng.choice([b"{", b"}", b";", b" ", b"x", b"(", b"\n", b"#if 0\n"]) + text[at:]
        else:
            text = text[:at] + text[at + rng.randrange(1, 4):]
        after, fresh = _both(text, "items-heldout-2.cl")
        assert after == fresh, text
