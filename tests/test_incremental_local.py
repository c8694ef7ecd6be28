"""Local rules (`Rule.local`: the semantic, address-space and gating families) re-read only
the edited functions: a caller of an edited helper keeps their findings from the cache while
the other families re-analyse it (a callee's summary feeds them). A helper's CL114 fix reads
every call site: an edited call site re-reads the helper's other callers. The result must
still equal a full lint whatever the edits."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.registry import all_rules
from cllint.analysis.target import Target

from test_incremental_focus import random_edits_equal_full

# Helpers called from kernels that hold semantic errors of their own (an undeclared name, a
# user function called with too few arguments, a store through a const pointer), so a
# caller's cached findings are visible when a helper is edited.
BASE = b"""float scale(float x, float k) { return x * k; }
void store(global float *o, int i, float v) { o[i] = v; }
float twice(float x) { return scale(x, 2.0f); }
void put(float *p, float v) { p[0] = v; }
kernel void k1(global float *o, global const float *in) {
    int gid = get_global_id(0);
    store(o, gid, twice(in[gid]) + missing);
    float s = scale(in[gid]);
    put(o, s);
}
kernel void k2(global float *o, global const float *in, local float *t) {
    int lid = get_local_id(0);
    t[lid] = twice(in[lid]);
    barrier(CLK_LOCAL_MEM_FENCE);
    in[0] = t[0];
    o[lid] = scale(t[lid], 3.0f);
    put(o, 1.0f);
}
"""
PIECES = [b";", b"{", b"}", b"x", b" ", b"\n", b"int j = 0;", b"missing", b"undeclared_y",
          b"scale(x)", b"twice(x, 1.0f)", b"return 1.0f;", b"barrier(CLK_LOCAL_MEM_FENCE);",
          b"if (get_local_id(0)) return;", b"const float c = 1.0f; c = 2.0f;", b"k", b"x = 1;",
          b"put(t, 2.0f);", b"put(o, 1.0f);", b"local float *q = o;", b"double d = 1.0;", b"p[1] = v;",
          b"(float *)o"]
OPTIONS = [LintOptions(target=Target.preset("CL1.2")), LintOptions(target=Target.preset("CL3.0"), mode="target")]


def test_the_semantic_family_is_local_and_others_are_not() -> None:
    local = {code for code, r in all_rules().items() if r.local}
    assert {"CL010", "CL013", "CL101", "CL114", "CL301", "CL309"} <= local
    assert not local & {"CL201", "CL210", "CL211", "CL407"}  # callee summaries, the call graph


def test_an_edit_in_a_helper_keeps_its_callers_semantic_findings() -> None:
    host = Host(OPTIONS[0])
    host.set_file("f", BASE)
    before = host.snapshot().diagnostics("f")
    codes = sorted(d.code for d in before)
    assert {"CL010", "CL013", "CL114"} <= set(codes)  # the callers' own errors
    at = BASE.index(b"return x * k;")
    host.apply_change(Change(edits={"f": [TextEdit(at, at, b" ")]}))
    snap = host.snapshot()
    after = snap.diagnostics("f")
    stats = snap.lint_stats("f")
    # scale, and its callers twice, k1, k2: re-analysed; the local rules read scale only
    assert stats["reanalysed"] == 4 and stats["reanalysed_local"] == 1
    assert [(d.code, d.message) for d in after] == [(d.code, d.message) for d in before]
    assert [d.span.start for d in after] == [d.span.start + (d.span.start > at) for d in before]


@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from(OPTIONS))
def test_random_edits_equal_a_full_lint(data: st.DataObject, options: LintOptions) -> None:
    random_edits_equal_full(data, BASE, PIECES, options)
