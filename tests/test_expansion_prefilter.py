"""CL001 reads a line-start call of a function-like macro as its expansion (libclc's
vectorizers); a keystroke with a syntax error must not scan the whole file for such calls
when no function-like macro of the program is named in it (issue 32, session 15). Labels:
clang-19 `-cl-std=CL3.0 -fsyntax-only` errors of each case."""

from __future__ import annotations

import pytest

import cllint.analysis.preprocessor.expanded_items as E
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

# A macro that writes a function, called at a line start: clang accepts the file.
CALLED = b"""#define TWICE(T) T twice_##T(T x) { return x + x; }
TWICE(float)
TWICE(int)
kernel void k(global float *o) { o[0] = twice_float(1.0f) + twice_int(2); }
"""
# The same, and a real error after it (clang: 4:29 expected expression).
CALLED_THEN_ERROR = b"""#define TWICE(T) T twice_##T(T x) { return x + x; }
TWICE(float)
kernel void k(global float *o) {
  o[0] = twice_float(1.0f) +;
}
"""
# A function-like macro the file never names again (clang: 4:13 expected expression).
UNNAMED = b"""#define SQ(x) ((x) * (x))
kernel void k(global float *o) {
  float v = 2.0f;
  o[0] = v +;
}
"""

# `inline` with no macro for it, and an error (clang: 5:13 expected expression): the keyword
# path (#define inline ...) has nothing to blank either.
INLINE = b"""inline float twice(float x) { return x + x; }
kernel void k(global float *o) {
  float v = twice(2.0f);
  o[0] = v;
  o[1] = v +;
}
"""


def syntax_lines(source: bytes) -> list[int]:
    opts = LintOptions(select=("CL001",), target=Target.preset("CL3.0"))
    found = lint_tree("k.cl", source, parse(source), opts)
    return sorted({source.count(b"\n", 0, d.span.start) + 1 for d in found if d.code == "CL001"})


@pytest.mark.parametrize(("source", "lines"), [(CALLED, []), (CALLED_THEN_ERROR, [4]), (UNNAMED, [4]),
                                                (INLINE, [5])])
def test_syntax_errors_as_clang_reports_them(source: bytes, lines: list[int]) -> None:
    assert syntax_lines(source) == lines


@pytest.mark.parametrize("source", [UNNAMED, INLINE])
def test_no_named_macro_skips_the_scan(monkeypatch: pytest.MonkeyPatch, source: bytes) -> None:
    view = build_view("k.cl", source, target=Target.preset("CL3.0"))

    def scanned(_: bytes) -> bytes:
        raise AssertionError("the whole file was scanned for macro calls")

    monkeypatch.setattr(E, "blank_comments", scanned)
    assert E.expansion_items(source, view, [source.index(b"+;")]) == []


def test_named_macro_still_read_as_its_expansion() -> None:
    view = build_view("k.cl", CALLED_THEN_ERROR, target=Target.preset("CL3.0"))
    errors = [CALLED_THEN_ERROR.index(b"TWICE(float)") + 12, CALLED_THEN_ERROR.index(b"+;")]
    items = E.expansion_items(CALLED_THEN_ERROR, view, errors)
    start = CALLED_THEN_ERROR.index(b"TWICE(float)")
    assert items and items[0][0] == start
