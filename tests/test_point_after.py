"""An edit's end points read from its start point and the edited span (`point_after`), not by
counting the lines of the file's whole prefix again: three to five counts of ~50 KB a keystroke
(`bytes.count` of one byte is a plain loop, ~0.3 ms of basic.cl, issue 32, session 20). Same
points as `point_at`. Written before the code; held-out third (crc32 % 3 == 0) in
test_point_after_heldout.py."""

from __future__ import annotations

import random

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.reparse import point_after, point_at
from cllint.analysis.syntax import parse


def check(text: bytes, known: int, offset: int) -> None:
    assert point_after(text, known, point_at(text, known), offset) == point_at(text, offset), (text, known, offset)


def test_same_line_insert() -> None:
    check(b"int a;\nint b = 1;\n", 11, 13)


def test_newline_inside_the_span() -> None:
    check(b"int a;\nint b\n= 1;\n", 9, 16)


def test_offset_equals_known() -> None:
    check(b"ab\ncd", 4, 4)


def test_first_line() -> None:
    check(b"kernel void k() {}", 0, 7)


def test_crlf_text() -> None:
    check(b"a;\r\nb;\r\nc;", 2, 9)


def test_random_offsets_as_point_at() -> None:
    rng = random.Random(20)
    for _ in range(2000):
        text = bytes(rng.choice(b"ab\n\r ") for _ in range(rng.randrange(0, 30)))
        known = rng.randrange(0, len(text) + 1)
        check(text, known, rng.randrange(known, len(text) + 1))


def _sexp(tree) -> str:  # noqa: ANN001
    return str(tree.root_node)


def test_multi_edit_host_tree_as_fresh() -> None:
    text = b"kernel void k(global int *a) {\n    a[0] = 1;\n}\n"
    host = Host()
    host.set_file("k.cl", text)
    edits = [TextEdit(35, 35, b"\n    a[1] = 2;"), TextEdit(0, 0, b"// x\n"), TextEdit(10, 12, b"")]
    host.apply_change(Change(edits={"k.cl": edits}))
    for e in edits:
        text = text[:e.start] + e.new_text + text[e.old_end:]
    snap = host.snapshot()
    assert snap.text("k.cl") == text
    fresh = parse(text)
    fresh = fresh[0] if isinstance(fresh, tuple) else fresh
    assert _sexp(snap.tree("k.cl")) == _sexp(fresh)
    assert [(n.start_point, n.end_point) for n in snap.tree("k.cl").root_node.children] == \
           [(n.start_point, n.end_point) for n in fresh.root_node.children]
