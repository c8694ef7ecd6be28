"""A keystroke whose lint the analysis budget cuts short (CL091) leaves the last complete lint's
memo in place (issue 32): the next keystroke re-analyses the functions edited since that lint,
not the whole file, so one slow moment does not make every later keystroke a whole-file lint
that passes the budget again."""

from __future__ import annotations

import time

import pytest

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.registry import rule

FUNCTIONS = 12
SOURCE = b"".join(b"float f%d(float x) { return x * %d.0f; }\n" % (i, i) for i in range(FUNCTIONS))
SOURCE += b"kernel void k(global float *a) { a[0] = f0(a[1]); }\n"


@pytest.fixture
def slow_once(monkeypatch: pytest.MonkeyPatch):
    """A switch that makes one rule spin in Python (a budget stops it between bytecodes)."""
    state = {"slow": False}
    cls = rule("CL010")
    real = cls.check

    def check(self, ctx):  # noqa: ANN001
        end = time.monotonic() + 30
        while state["slow"] and time.monotonic() < end:
            pass
        return real(self, ctx)

    monkeypatch.setattr(cls, "check", check)
    return state


def _type(host: Host, offset: int, text: bytes) -> None:
    host.apply_change(Change(edits={"f": [TextEdit(offset, offset, text)]}))


def test_a_cut_keystroke_keeps_the_last_complete_memo(slow_once) -> None:
    host = Host()
    host.apply_change(Change(files={"f": SOURCE}, options={"f": LintOptions(budget=0.5)}))
    full = host.snapshot().diagnostics("f")
    assert not any(d.code == "CL091" for d in full)
    assert host.snapshot().lint_stats("f")["reanalysed"] == FUNCTIONS + 1
    body = SOURCE.index(b"3.0f")  # typing digits into a literal
    slow_once["slow"] = True
    _type(host, body, b"1")
    assert any(d.code == "CL091" for d in host.snapshot().diagnostics("f"))  # cut short
    slow_once["slow"] = False
    _type(host, body, b"1")
    after = host.snapshot().diagnostics("f")
    assert not any(d.code == "CL091" for d in after)
    assert host.snapshot().lint_stats("f")["reanalysed"] < FUNCTIONS  # the edited function and its callers
    scratch = Host()
    scratch.apply_change(Change(files={"f": host.snapshot().text("f")}, options={"f": LintOptions(budget=0.5)}))
    assert after == scratch.snapshot().diagnostics("f")
