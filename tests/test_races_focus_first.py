"""The race check asks whether a function is a kernel only for the functions in focus (issue 32,
session 21): a keystroke's run read every definition's specifiers first (67 on darktable's
basic.cl), to skip all but the edited one after. Counted, not timed; what is reported stays a
full lint's. Held-out case: test_races_focus_first_heldout.py."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.races import check

N = 30
RACY = ("kernel void k{i}(global float *out, local float *l) {{\n    int lid = get_local_id(0);\n"
        "    l[lid] = lid;\n    out[lid] = l[(lid + 1) & 15];\n}}\n")
TEXT = "".join(RACY.format(i=i) for i in range(N)).encode()
OPTIONS = LintOptions(select=("CL21",))


def _counting(monkeypatch) -> list[int]:  # noqa: ANN001
    asked: list[int] = []
    real = check._is_kernel

    def counted(func):  # noqa: ANN001, ANN202
        asked.append(func.start_byte)
        return real(func)

    monkeypatch.setattr(check, "_is_kernel", counted)
    return asked


def test_out_of_focus_kernels_not_asked(monkeypatch) -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    assert len(host.snapshot().diagnostics("k.cl")) == N
    asked = _counting(monkeypatch)
    at = TEXT.index(b"l[lid] = lid;", len(TEXT) // 2)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b" ")]}))
    got = host.snapshot().diagnostics("k.cl")
    assert len(got) == N
    assert 1 <= len(asked) <= 2, asked  # the edited kernel (and a neighbour a line shares), not all N


def test_focused_race_still_reported(monkeypatch) -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    host.snapshot().diagnostics("k.cl")
    _counting(monkeypatch)
    at = TEXT.index(b"out[lid] = l[(lid + 1) & 15];", len(TEXT) // 2)
    end = at + len(b"out[lid] = l[(lid + 1) & 15];")
    # the read made the item's own: the edited kernel's race goes, the others' stay
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, end, b"out[lid] = l[lid];")]}))
    got = host.snapshot().diagnostics("k.cl")
    assert len(got) == N - 1
    fixed = TEXT[:at] + b"out[lid] = l[lid];" + TEXT[end:]
    fresh = Host(OPTIONS)
    fresh.set_file("k.cl", fixed)
    assert got == fresh.snapshot().diagnostics("k.cl")


def test_unfocused_race_kept_from_last_lint(monkeypatch) -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    before = host.snapshot().diagnostics("k.cl")
    _counting(monkeypatch)
    at = TEXT.index(b"int lid", len(TEXT) // 3)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"\n")]}))
    got = host.snapshot().diagnostics("k.cl")
    assert [(d.code, d.message) for d in got] == [(d.code, d.message) for d in before]
    assert [(d.span.start, d.span.end) for d in got if d.span.start < at] == \
        [(d.span.start, d.span.end) for d in before if d.span.start < at]
