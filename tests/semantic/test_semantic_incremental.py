"""The semantic family under incremental linting: after random edits (mostly inside bodies,
where only the edited function and its callers are re-analysed) the result equals a full lint."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.rules.semantic import RULES

CODES = tuple(r.code for r in RULES)
BASE = b"""#define N 4
typedef struct { float x; float y; } point;
float scale(float x, float s) { return x * s; }
int sign_of(int x) { if (x > 0) return 1; if (x < 0) return -1; return 0; }
kernel void a(global float *in, global float4 *out, global point *p) {
    int gid = get_global_id(0);
    float total = in[gid] * TILE;
    out[gid] = (float4)(total, 1.0f, 2.0f, 3.0f);
    p[gid].x = scale(total, 2.0f);
}
kernel void b(global const float *in, global int *o) {
    int i = sign_of(o[0]) + TILE;
    o[i] = N;
}
"""
PIECES = [b";", b"{", b"}", b"x", b" ", b"\n", b"int i = 0;", b"totl", b"scale(total)", b"TILE", b"return;",
          b"const int c = 1; c = 2;", b".z", b"sign_of(1, 2)", b"float scale(float x) { return x; }\n",
          b"#define TILE 8\n", b"#undef N\n", b"fmax(total)", b"(float2)(1.0f, 2.0f, 3.0f)", b"gid"]


def full(text: bytes, options: LintOptions) -> list:
    h = Host(options)
    h.set_file("f", text)
    return h.snapshot().diagnostics("f")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_incremental_equals_full(data):
    options = LintOptions(select=CODES)
    host = Host(options)
    text = BASE
    host.set_file("f", text)
    first = host.snapshot().diagnostics("f")
    # `TILE` in both kernels: one CL012 for the file, the other kernel's use a note (issue 29, item 6)
    assert [d.code for d in first] == ["CL012"] and [n.span.start for n in first[0].notes] == [BASE.rindex(b"TILE")]
    for _ in range(data.draw(st.integers(1, 6))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        new = data.draw(st.sampled_from(PIECES))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        text = text[:start] + new + text[end:]
        snap = host.snapshot()
        if not snap.is_canonical("f"):
            host.settle("f")
            snap = host.snapshot()
        assert snap.diagnostics("f") == full(text, options)
