"""`may_share` (the race check's prefilter: a kernel whose text has no `local`/`global`
qualifier word) found by the words first, their neighbours tested after: the pattern with a
lookbehind first tried every byte of an edited kernel (0.2 ms of darktable's 1.6 KB
`clip_rotate_lanczos3` a keystroke, issue 32, session 20). Same answers as the pattern's, on
the range it was given. Written before the code; held-out third (crc32 % 3 == 0) in
test_race_prefilter_words_heldout.py."""

from __future__ import annotations

import random
import re

from cllint.analysis.races.prefilter import may_share

# The prefilter's pattern before session 20: the reference.
PATTERN = re.compile(rb"(?<![\w$])(?:__)?(?:local|global)(?![\w$])")


def reference(text: bytes, start: int, end: int) -> bool:
    return PATTERN.search(text, start, end) is not None


def check(text: bytes, start: int = 0, end: int | None = None) -> bool:
    end = len(text) if end is None else end
    got = may_share(text, start, end)
    assert got == reference(text, start, end), (text, start, end)
    return got


def test_qualifier_after_paren() -> None:
    assert check(b"kernel void k(__local float *t) {}")
    assert check(b"kernel void k(global float *t) {}")


def test_underscored_prefix_word() -> None:
    assert not check(b"int _local = 1; int a_global;")


def test_word_glued_after() -> None:
    assert not check(b"int local_x = get_global_id(0); int globals;")


def test_dollar_neighbours() -> None:
    assert not check(b"int $local; int global$;")


def test_word_at_range_end() -> None:
    text = b"x = 1; __global"
    assert check(text, 0, len(text))


def test_underscores_before_range_start() -> None:
    text = b"(__local"
    assert not check(text, 3)  # from the 'l': the pattern sees the '_' before it


def test_word_straddling_range_end() -> None:
    text = b"int x; globalvar"
    assert check(text, 0, len(b"int x; global"))  # the range ends where the word does: the end counts as a boundary


def test_dunder_global_at_file_start() -> None:
    assert check(b"__global int *p;")


def test_triple_underscore_local() -> None:
    assert not check(b"int ___local;")


def test_random_texts_as_the_pattern() -> None:
    rng = random.Random(32)
    pieces = [b"local", b"global", b"__", b"_", b"$", b" ", b"(", b"x", b"\n", b"l", b"al"]
    for _ in range(3000):
        text = b"".join(rng.choice(pieces) for _ in range(rng.randrange(1, 12)))
        start = rng.randrange(0, len(text) + 1)
        end = rng.randrange(start, len(text) + 1)
        check(text, start, end)
