"""Held-out cases for the absent needles of `not_opencl_reason` (written with
tests/test_source_kind_absent.py, before the code): a marker made with the body's own brace, a
lit RUN line typed in a comment, a trigger deleted again, a C++ class typed at a body's start."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit

BASE = b"""kernel void a(global int *o) {
    o[0] = 1;
}

kernel void b(global int *o) {
    o[1] = 2;
}
"""


def _check(host: Host, text: bytes) -> list[str]:
    got = host.snapshot().diagnostics("k.cl")
    fresh = Host()
    fresh.set_file("k.cl", text)
    want = fresh.snapshot().diagnostics("k.cl")
    assert [(d.code, d.span, d.message) for d in got] == [(d.code, d.span, d.message) for d in want], text
    return [d.code for d in got]


def _type(base: bytes, at: int, typed: bytes) -> tuple[Host, bytes, list[str]]:
    host = Host()
    host.set_file("k.cl", base)
    host.snapshot().diagnostics("k.cl")
    text, codes = base, []
    for i in range(len(typed)):
        ch = typed[i:i + 1]
        host.apply_change(Change(edits={"k.cl": [TextEdit(at + i, at + i, ch)]}))
        text = text[:at + i] + ch + text[at + i:]
        codes = _check(host, text)
    return host, text, codes


def test_a_marker_made_with_the_bodys_opening_brace() -> None:
    at = BASE.index(b"{\n    o[1]") + 1
    _type(BASE, at, b" x }}")  # `{` of the body + ` x }}`: never `{{` itself, equal all the same


def test_a_run_line_typed_in_a_comment() -> None:
    at = BASE.index(b"    o[0] = 1;")
    _, _, codes = _type(BASE, at, b"// RUN: %clang_cc1 -verify %s\n")
    assert codes == _type(BASE, at, b"// RUN: %clang_cc1 -verify %s\n")[2]


def test_a_trigger_typed_then_deleted() -> None:
    at = BASE.index(b"    o[1] = 2;")
    typed = b"namespace n { }\n"
    host, text, codes = _type(BASE, at, typed)
    for i in range(len(typed)):
        end = at + len(typed) - i
        host.apply_change(Change(edits={"k.cl": [TextEdit(end - 1, end, b"")]}))
        text = text[:end - 1] + text[end:]
        codes = _check(host, text)
    assert text == BASE and "CL006" not in codes


def test_a_class_typed_at_a_bodys_start() -> None:
    at = BASE.index(b"{\n    o[0]") + 2
    _type(BASE, at, b"class C {\npublic:\n int v;\n};\n")
