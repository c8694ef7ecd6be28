"""Held-out case of test_addrspace_expressions_focus.py (crc32 of the name % 3 == 0, chosen
before the code)."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.target import Target

OPTIONS = LintOptions(target=Target.preset("CL1.2"), select=("CL1",))
SRC = (b"float get(float *p) { return p[0]; }\n"
       b"kernel void a(global float *g, global float *o) { o[0] = get(g); }\n"
       b"kernel void b(global float *o) { o[0] = 1.0f; }\n"
       b"kernel void c(global float *g, global float *o) { o[1] = get(g + 1); }\n")


def test_cl114_fix_reads_unfocused_call_sites() -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", SRC)
    first = host.snapshot().diagnostics("k.cl")
    assert [d.code for d in first] == ["CL114", "CL114"] and all(d.fix is not None for d in first)
    at = SRC.index(b"o[0] = 1.0f;")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"local float t[4]; o[1] = get(t); ")]}))
    got = host.snapshot().diagnostics("k.cl")
    # b passes a '__local' pointer now: no one space fits every call, so no fix at a or c either
    assert [d.code for d in got] == ["CL114", "CL114", "CL114"]
    assert all(d.fix is None for d in got)
