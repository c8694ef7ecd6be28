"""A sync built-in's name after `.` or `->` in a macro body is a field, not the call: `->` is one
preprocessing token (C's maximal munch), as the macro reader now tokenises it."""
from __future__ import annotations

from cllint.analysis.preprocessor.expr import tokenize
from cllint.analysis.uniformity.macros import _member


def _at(text: str, word: str) -> bool:
    toks = tokenize(text)
    return _member(toks, next(i for i, t in enumerate(toks) if t.text == word))


def test_arrow_and_dot_make_a_field() -> None:
    assert _at("q->barrier = 1", "barrier")
    assert _at("s.work_group_barrier", "work_group_barrier")


def test_a_call_is_no_field() -> None:
    assert not _at("barrier(CLK_LOCAL_MEM_FENCE)", "barrier")
    assert not _at("x > barrier", "barrier")
