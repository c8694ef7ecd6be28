"""Held-out case of test_recursion_cycles_kept.py (crc32 of the name % 3 == 0), written with
the tune cases before the code and first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_recursion_cycles_kept import typed


def test_typing_a_self_call() -> None:
    got = typed(b"int twig(int n) { return n * 2", b" + twig(n - 1)")
    assert [d.message for d in got if "twig" in d.message] == ["'twig' calls itself: recursion is not supported in OpenCL C"]
    assert len(got) == 3
