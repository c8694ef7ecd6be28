"""Positions on a line holding a lone surrogate (issue 22 item 6, found by the edit fuzzer).

A client's text is UTF-16, so it may hold a lone surrogate (a paste of broken bytes); it
arrives through JSON and the server stores it as 'surrogatepass' UTF-8, three bytes that
stand for one UTF-16 unit. Decoding those bytes with 'replace' read them as three
characters, so every position after one on the same line was off by two and edits there
landed at the wrong bytes: the server's text drifted from the editor's."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st
from lsprotocol import types

from cllint.server import convert
from cllint.server.convert import LineIndex

P = types.Position
LONE = "\udcff"


def _index(text: str, encoding: str = convert.UTF16) -> LineIndex:
    return LineIndex(text.encode("utf-8", "surrogatepass"), encoding)


def test_position_after_lone_surrogate_counts_one_unit():
    idx = _index(f"a{LONE}bc = 1;")
    assert idx.offset(P(0, 3)) == 5  # after 'a', the surrogate (3 bytes) and 'b'
    assert idx.position(len(idx.text)) == P(0, 9)
    assert _index(f"a{LONE}bc", convert.UTF32).offset(P(0, 3)) == 5


def test_edit_after_lone_surrogate_lands_where_the_client_meant():
    text = f"x = {LONE}; y = 1;\n"
    idx = _index(text)
    change = types.TextDocumentContentChangePartial(range=types.Range(P(0, 7), P(0, 8)), text="z")
    convert.apply_changes(idx, [change])
    assert idx.text.decode("utf-8", "surrogatepass") == text[:7] + "z" + text[8:]


def test_undecodable_bytes_still_convert():
    """Bytes no UTF-16 text can give (a header read from disk): one unit each, no error."""
    idx = LineIndex(b"a\xffb\xc3(c")
    assert idx.position(3) == P(0, 3) and idx.offset(P(0, 3)) == 3


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["a", "é", "😀", LONE, "\udc80", "\ud800", " "]), max_size=12), st.data())
def test_client_offsets_round_trip(chars, data):
    """Any position the client computes on its UTF-16 string maps to the same text split."""
    text = "".join(chars)
    idx = _index(text)
    cut = data.draw(st.integers(0, len(text)))
    units = len(text[:cut].encode("utf-16-le", "surrogatepass")) // 2
    assert idx.offset(P(0, units)) == len(text[:cut].encode("utf-8", "surrogatepass"))
    assert idx.position(len(text[:cut].encode("utf-8", "surrogatepass"))) == P(0, units)
