"""CL407 while typing, with the file's call cycles kept by the graph's content: a keystroke
ran Tarjan's search over every defined function again (~0.3 ms of darktable's basic.cl) though
its graph was the last one's (issue 32, session 20). Each keystroke's report equals a fresh
lint of the same text. Written before the code; the held-out third (crc32 % 3 == 0) is in
test_recursion_cycles_kept_heldout.py."""

from __future__ import annotations

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit

SOURCE = b"""int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int leaf(int n) { return n + 1; }
int twig(int n) { return n * 2; }
kernel void k(global int *o) { o[0] = even(4) + leaf(2); }
"""


def _fresh(text: bytes) -> list:
    with Database().active():
        h = Host()
        h.set_file("f.cl", text)
        return h.snapshot().diagnostics("f.cl")


def typed(at: bytes, text: bytes, delete: int = 0, source: bytes = SOURCE) -> list:
    """Deletes `delete` bytes at the end of the first `at`, then types `text` there, one
    keystroke each; every version's CL407 reports equal a fresh lint's. The last version's."""
    host = Host()
    host.set_file("f.cl", source)
    host.snapshot().diagnostics("f.cl")
    pos = source.index(at) + len(at)
    src, got = source, []
    steps = [(pos, pos + 1, b"")] * delete + [(pos + i, pos + i, text[i:i + 1]) for i in range(len(text))]
    for s, e, ch in steps:
        host.apply_change(Change(edits={"f.cl": [TextEdit(s, e, ch)]}))
        src = src[:s] + ch + src[e:]
        got = host.snapshot().diagnostics("f.cl")
        want = _fresh(src)
        assert [(d.code, d.span, d.message, d.notes) for d in got] == \
               [(d.code, d.span, d.message, d.notes) for d in want], src.decode()
    return [d for d in got if d.code == "CL407"]


def test_typing_closes_a_two_cycle() -> None:
    got = typed(b"int leaf(int n) { return ", b"twig(n) + ")
    got = typed(b"int twig(int n) { return ", b"leaf(n) + ", source=SOURCE.replace(b"return n + 1;", b"return twig(n) + n + 1;"))
    assert sorted(d.message.split("'")[1] for d in got) == ["even", "leaf", "odd", "twig"]


def test_deleting_a_call_breaks_the_cycle() -> None:
    got = typed(b"return n == 0 ? 1 : ", b"leaf", delete=3)
    assert got == []


def test_unrelated_typing_keeps_a_cycle() -> None:
    got = typed(b"int twig(int n) { return n * 2", b" + 40")
    assert len(got) == 2


def test_typing_a_call_into_a_three_cycle() -> None:
    source = SOURCE.replace(b"return n + 1;", b"return twig(n) + 1;")
    got = typed(b"int twig(int n) { return n * 2", b" + odd(n)", source=source)
    assert len(got) == 2  # odd -> even -> odd; twig calls odd but no cycle runs back to twig


def test_renamed_callee_typed() -> None:
    got = typed(b"int leaf(int n) { return n + 1", b" + leaf(n)")
    assert any("'leaf' calls itself" in d.message for d in got)
