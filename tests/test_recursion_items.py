"""CL407 (recursion) after keystrokes: the edit's run reads who may call whom off the file's
matched items (toplevel.items_of), each carried body's answer kept on its item, instead of
slicing and hashing every body on every keystroke (issue 32, session 18). What it reports
equals a lint from scratch of the same text."""

from __future__ import annotations

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions

OPTIONS = LintOptions()

SOURCE = b"""int even(int n);
int odd(int n) { return n == 0 ? 0 : even(n - 1); }
int even(int n) { return n == 0 ? 1 : odd(n - 1); }
int leaf(int n) { return n + 1; }
kernel void k(global int *o) { o[0] = even(4) + leaf(2); }
"""


def _fresh(text: bytes) -> list:
    with Database().active():
        h = Host(OPTIONS)
        h.set_file("f", text)
        return h.snapshot().diagnostics("f")


def _typed(edits: list[tuple[bytes, bytes]]) -> tuple[list, list, bytes]:
    host = Host(OPTIONS)
    text = SOURCE
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    for old, new in edits:
        pos = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(pos, pos + len(old), new)]}))
        text = text[:pos] + new + text[pos + len(old):]
        host.snapshot().diagnostics("f")
    return host.snapshot().diagnostics("f"), _fresh(text), text


def _cl407(diags: list) -> list[tuple[int, str]]:
    return [(d.span.start, d.message) for d in diags if d.code == "CL407"]


def test_a_cycle_kept_through_an_edit_of_an_unrelated_body() -> None:
    inc, full, _ = _typed([(b"n + 1;", b"n + 12;")])
    assert inc == full
    assert len(_cl407(inc)) == 2


def test_a_cycle_broken_in_one_body() -> None:
    inc, full, _ = _typed([(b": odd(n - 1)", b": leaf(n - 1)")])
    assert inc == full
    assert _cl407(inc) == []


def test_a_cycle_made_by_typing_a_call() -> None:
    inc, full, _ = _typed([(b"return n + 1;", b"return leaf(n) + 1;")])
    assert inc == full
    assert any("'leaf' calls itself" in m for _, m in _cl407(inc))
