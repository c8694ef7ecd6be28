"""server/convert.py: UTF-16/UTF-8 positions <-> byte offsets, edits, diagnostics, fixes."""

from __future__ import annotations

import json

from hypothesis import given, settings, strategies as st
from lsprotocol import types

from cllint.analysis.diagnostics import Applicability, Diagnostic, Edit, Fix, Note, Severity, Span, Tag
from cllint.server import convert
from cllint.server.convert import LineIndex

P = types.Position


def test_ascii_round_trip_and_clamping():
    idx = LineIndex(b"ab\ncd\r\nef")
    assert idx.offset(P(1, 1)) == 4
    assert idx.offset(P(1, 99)) == 5  # past end of line: before the '\r\n'
    assert idx.offset(P(9, 0)) == len(idx.text)  # past end of file
    assert idx.position(4) == P(1, 1)
    assert idx.position(999) == P(2, 2)


def test_non_bmp_characters_count_two_utf16_units():
    text = "a😀b\n".encode()  # U+1F600: 4 UTF-8 bytes, 2 UTF-16 units
    idx = LineIndex(text)
    assert idx.offset(P(0, 1)) == 1
    assert idx.offset(P(0, 3)) == 5
    assert idx.position(5) == P(0, 3)
    assert LineIndex(text, convert.UTF8).position(5) == P(0, 5)
    assert LineIndex(text, convert.UTF32).offset(P(0, 2)) == 5


def test_incremental_changes_keep_line_starts():
    idx = LineIndex(b"one\ntwo\nthree\n")
    rng = types.Range(P(1, 1), P(2, 2))
    edits, full = convert.apply_changes(idx, [types.TextDocumentContentChangePartial(range=rng, text="X\nY\nZ")])
    assert full is None and idx.text == b"one\ntX\nY\nZree\n"
    assert idx.line_count == LineIndex(idx.text).line_count
    assert edits[0].start == 5 and edits[0].old_end == 10


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab\n😀é\r", max_size=30), st.data())
def test_random_edits_match_rebuilt_index(text, data):
    idx = LineIndex(text.encode())
    for _ in range(5):
        n = len(idx.text.decode())
        s = data.draw(st.integers(0, n))
        e = data.draw(st.integers(s, n))
        cur = idx.text.decode()
        new = data.draw(st.text(alphabet="x\n😀", max_size=4))
        a, b = idx.position(len(cur[:s].encode())), idx.position(len(cur[:e].encode()))
        convert.apply_changes(idx, [types.TextDocumentContentChangePartial(range=types.Range(a, b), text=new)])
        fresh = LineIndex(idx.text)
        assert idx._starts == fresh._starts
        if "\r" not in cur:
            assert idx.text.decode() == cur[:s] + new + cur[e:]


def test_diagnostic_conversion():
    text = b"x\ny y\n"
    d = Diagnostic("CL201", Severity.ERROR, "msg", Span("f", 2, 3),
                   notes=(Note(Span("f", 4, 5), "declared here"),), tags=(Tag.DEPRECATED,))
    out = convert.to_lsp_diagnostic(d, LineIndex(text))
    assert out.range == types.Range(P(1, 0), P(1, 1))
    assert out.code == "CL201" and out.severity == types.DiagnosticSeverity.Error
    assert out.code_description.href == convert.RULE_DOCS_URL.format(code="CL201")
    assert list(out.tags) == [types.DiagnosticTag.Deprecated]
    assert out.related_information[0].location.range.start == P(1, 2)


def test_diagnostic_json_is_what_lsprotocol_would_send():
    """Diagnostics are published as JSON made without lsprotocol's converter: it must be
    the JSON the converter makes of the same diagnostic (non-BMP text included)."""
    text = "a\n\U0001F600 b = c;\n".encode()
    idx = LineIndex(text)
    b = text.index(b"b")
    d = Diagnostic("CL102", Severity.WARNING, "msg", Span("f", b, b + 1),
                   notes=(Note(Span("f", 0, 1), "here"), Note(Span("other", 3, 4), "elsewhere")),
                   tags=(Tag.UNNECESSARY,))
    expected = types.Diagnostic(
        range=types.Range(P(1, 3), P(1, 4)), message="msg", severity=types.DiagnosticSeverity.Warning,
        code="CL102", code_description=types.CodeDescription(convert.RULE_DOCS_URL.format(code="CL102")),
        source="cllint", tags=[types.DiagnosticTag.Unnecessary], related_information=[
            types.DiagnosticRelatedInformation(types.Location("f", types.Range(P(0, 0), P(0, 1))), "here"),
            types.DiagnosticRelatedInformation(types.Location("other", types.Range(P(0, 0), P(0, 0))),
                                               "elsewhere")])
    assert convert.to_lsp_json(d, idx) == convert.lsp_to_json(expected)
    assert convert.lsp_to_json(convert.to_lsp_diagnostic(d, idx)) == convert.lsp_to_json(expected)
    plain = Diagnostic("CL001", Severity.ERROR, "m", Span("f", 0, 1))
    assert "tags" not in convert.to_lsp_json(plain, idx) and "relatedInformation" not in convert.to_lsp_json(plain, idx)


def test_fix_actions_by_applicability():
    idx = LineIndex(b"abc")
    lsp = types.Diagnostic(range=idx.range(0, 1), message="m")
    def diag(app):
        return Diagnostic("CL1", Severity.WARNING, "m", Span("f", 0, 1),
                          fix=Fix("Do it", (Edit(Span("f", 0, 1), "z"),), app))
    safe = convert.fix_action("u", diag(Applicability.SAFE), lsp, idx)
    unsafe = convert.fix_action("u", diag(Applicability.UNSAFE), lsp, idx)
    display = convert.fix_action("u", diag(Applicability.DISPLAY_ONLY), lsp, idx)
    assert safe.is_preferred and safe.edit.changes["u"][0].new_text == "z"
    assert not unsafe.is_preferred and unsafe.edit is not None
    assert display.edit is None and display.disabled is not None


def test_json_cache_equals_a_fresh_conversion_after_edits():
    """Published JSON is reused for diagnostics before every edit since the last
    publication; after any edit it must equal converting from scratch."""
    from cllint.analysis.db import TextEdit

    text = b"aaaa\nbbbb\ncccc\ndddd\n"
    idx = LineIndex(text)
    cache = convert.JsonCache()

    def diags(t: bytes) -> list[Diagnostic]:
        # one diagnostic per line: on the first 'b', 'c' and 'd' run, wherever they are now
        return [Diagnostic("CL001", Severity.ERROR, ch.decode(), Span("f", t.index(ch), t.index(ch) + 1))
                for ch in (b"b", b"c", b"d") if ch in t]

    first = cache.convert(diags(text), idx)
    assert [json.loads(t) for t in first] == [convert.to_lsp_json(d, idx) for d in diags(text)]
    for edit in (TextEdit(12, 12, b"x"), TextEdit(0, 0, b"\n"), TextEdit(6, 6, "\U0001F600".encode()),
                 TextEdit(3, 5, b""), TextEdit(10, 10, b"q"), TextEdit(1, 2, b"\n")):
        # the last one keeps every byte offset but moves the lines after it
        idx.apply(edit)
        text = idx.text
        got = cache.convert(diags(text), idx)
        assert [json.loads(t) for t in got] == [convert.to_lsp_json(d, idx) for d in diags(text)], edit
    # With no edit since, everything is reused as it was.
    again = cache.convert(diags(text), idx)
    assert all(a is b for a, b in zip(got, again))
