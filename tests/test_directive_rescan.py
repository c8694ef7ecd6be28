"""Directive scans reuse the file's previous scan (analysis/preprocessor/directives.py):
after any edit, the result must equal a scan of the new text from scratch, whatever
the edit does to comments, literals, continuations and directive lines."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.database import current
from cllint.analysis.preprocessor.directives import _LAST_SCANS_MAX, scan_directives

BASE = b"""#define A 1
#include "x.h"
/* a comment
#define HIDDEN 1
*/
kernel void k(global int *p) {
    p[0] = A; // trailing # comment
    char *s = "#not a directive";
#if A
    p[1] = 2;
#else
    p[1] = 3;
#endif
}
#define LONG(x) \\
    ((x) + 1)
void f(void) { }
"""
PIECES = [b"#", b"#define B 2\n", b"\n", b"/*", b"*/", b"//", b"\\", b"\\\n", b"\"", b"'", b"x", b" ",
          b"#if 0\n", b"#endif\n", b"\n#pragma once\n", b""]


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_a_rescan_equals_a_scan_from_scratch(data) -> None:
    key = object()
    text = BASE
    scan_directives(text, key)
    for _ in range(data.draw(st.integers(1, 6))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 12)))
        text = text[:start] + data.draw(st.sampled_from(PIECES)) + text[end:]
        assert scan_directives(text, key) == scan_directives(text)
    current().per_file("directives.scans", _LAST_SCANS_MAX).pop(key, None)


def test_an_edit_below_the_directives_keeps_their_objects() -> None:
    """The common keystroke: no directive is read again, and none is copied."""
    key = object()
    first = scan_directives(BASE, key)
    edited = BASE.replace(b"void f(void) { }", b"void f(void) { int y = 1; }")
    again = scan_directives(edited, key)
    assert again == scan_directives(edited)
    assert all(a is b for a, b in zip(first, again)) and len(first) == len(again)
    moved = scan_directives(b"// one more line\n" + edited, key)
    assert [d.start for d in moved] == [d.start + len(b"// one more line\n") for d in again]
    assert moved == scan_directives(b"// one more line\n" + edited)
    current().per_file("directives.scans", _LAST_SCANS_MAX).pop(key, None)
