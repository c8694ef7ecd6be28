"""Held out (issue 32, session 18): CL407 after keystrokes that rename functions or add one
equals a lint from scratch."""

from __future__ import annotations

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions

OPTIONS = LintOptions()

SOURCE = b"""int a(int n) { return n > 0 ? b(n - 1) : 0; }
int b(int n) { return n; }
kernel void k(global int *o) { o[0] = a(3); }
"""


def _run(edits: list[tuple[bytes, bytes]]) -> tuple[list, list]:
    host = Host(OPTIONS)
    text = SOURCE
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    for old, new in edits:
        pos = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(pos, pos + len(old), new)]}))
        text = text[:pos] + new + text[pos + len(old):]
        host.snapshot().diagnostics("f")
    with Database().active():
        fresh = Host(OPTIONS)
        fresh.set_file("f", text)
        return host.snapshot().diagnostics("f"), fresh.snapshot().diagnostics("f")


def test_a_body_calling_back_then_a_rename_of_the_callee() -> None:
    inc, full = _run([(b"return n; }", b"return a(n); }"), (b"int b(int n)", b"int c(int n)")])
    assert inc == full


def test_a_new_function_calling_itself_typed_between_two() -> None:
    inc, full = _run([(b"int b(int n)", b"int r(int n) { return r(n); }\nint b(int n)")])
    assert inc == full
    assert any(d.code == "CL407" for d in inc)
