"""Held-out cases of test_races_focus_first.py (crc32 of the name % 3 == 0... none of its
names fell there: these two were named and chosen so, by crc32 % 3 == 2, before the code)."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions

OPTIONS = LintOptions(select=("CL21",))
TEXT = b"""#define KERNEL __kernel
void helper(local float *l, int i) { l[i] = i; }
KERNEL void a(global float *out, local float *l) {
    int lid = get_local_id(0);
    helper(l, lid);
    out[lid] = l[(lid + 1) & 15];
}
kernel void b(global float *out, local float *l) {
    int lid = get_local_id(0);
    l[lid] = lid;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[lid] = l[(lid + 1) & 15];
}
"""


def lint_source(text: bytes, name: str, options: LintOptions) -> list:
    host = Host(options)
    host.set_file(name, text)
    return host.snapshot().diagnostics(name)


def test_races_full_lint_unchanged() -> None:
    got = lint_source(TEXT, "k.cl", OPTIONS)
    assert [(d.code, d.span.start) for d in got] == [("CL210", TEXT.index(b"l[(lid + 1) & 15];"))]  # the read


def test_racy_kernel_outside_focus_not_reported() -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    first = host.snapshot().diagnostics("k.cl")
    at = TEXT.index(b"barrier(")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"// ")]}))
    got = host.snapshot().diagnostics("k.cl")
    edited = TEXT[:at] + b"// " + TEXT[at:]
    assert got == lint_source(edited, "k.cl", OPTIONS)
    assert len(got) == len(first) + 1  # the macro-spelt kernel's race stays, b's is new
