"""Incremental linting (analysis/incremental.py) must equal a full lint of the same text,
whatever the edit sequence: random edits anywhere, including signatures and directives."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions, lint_tree, suppress_all
from cllint.analysis.target import Target

BASE = b"""#define N 64
float helper(float *p, int i) { return p[i]; }
void sync_helper(int x) { if (x) { } barrier(CLK_LOCAL_MEM_FENCE); }
kernel void a(global float *in, global float *out, local float *t) {
    int lid = get_local_id(0);
    t[lid] = helper(in, lid);
    if (lid < 4) sync_helper(lid);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[lid] = t[lid] * 0.5;
}
kernel void b(global double *d, global int *o) {
    size_t g = get_global_id(0);
    if (g > 10) return;
    barrier(CLK_GLOBAL_MEM_FENCE);
    local int *p = (local int *)o;
    d[g] = helper((float *)d, 0);
}
void unqualified(int *q) { q[0] = 1; }
kernel void c(global int *x) { unqualified(x); }
kernel void e(global int *y, local int *z) { unqualified(y); }
"""
# Program-scope declarations with diagnostics of their own (CL103, CL109, CL110, CL111,
# CL308): an edit in a body keeps them from the cache, which must stay right.
SCOPED = BASE.replace(b"#define N 64\n", b"""#define N 64
__constant float k = 1.0;
global int counter;
__constant int table[2];
typedef struct { image2d_t img; int n; } holder_t;
kernel void proto(int *x);
sampler_t smp = 0;
""")
# Barriers behind macros (analysis/uniformity/macros.py): a helper reaching one through
# a macro, and a use under a divergent branch; pieces redefine, undefine and use them.
MACROS = BASE.replace(b"#define N 64\n", b"#define N 64\n#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)\n"
                      b"#define LB SYNC()\n").replace(b"if (x) { } barrier(CLK_LOCAL_MEM_FENCE);", b"if (x) { } LB;") \
    .replace(b"    if (g > 10) return;\n", b"    if (g > 10) SYNC();\n")
PIECES = [b";", b"{", b"}", b"x", b" ", b"\n", b"int j = 0;", b"global ", b"barrier(0);",
          b"helper(t, 1);", b"if (lid) return;", b"1.0", b"#ifdef cl_khr_fp64\n", b"#endif\n",
          b"(local float *)", b"get_local_id(0)", b"unqualified(z);", b"z", b"y",
          b"typedef int *ip;\n", b"ip ", b"#define z y\n", b"#undef N\n", b"SYNC();", b"LB;",
          b"#define SYNC()\n", b"#undef LB\n"]


def full(text: bytes, options: LintOptions) -> list:
    h = Host(options)
    h.set_file("f", text)
    return h.snapshot().diagnostics("f")


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_incremental_lint_equals_full(data):
    options = LintOptions(target=Target.preset(data.draw(st.sampled_from(["CL1.2", "CL2.0"]))))
    host = Host(options)
    text = data.draw(st.sampled_from([BASE, SCOPED, MACROS]))
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    for _ in range(data.draw(st.integers(1, 6))):
        # mostly inside function bodies, where the incremental path applies
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        new = data.draw(st.sampled_from(PIECES))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        text = text[:start] + new + text[end:]
        snap = host.snapshot()
        if not snap.is_canonical("f"):
            host.settle("f")  # error recovery depends on history until settled
            snap = host.snapshot()
        assert snap.diagnostics("f") == full(text, options)


def full_on_tree(snap, options: LintOptions) -> list:
    """A full lint of the snapshot's own tree (an unsettled tree may read differently
    from a fresh parse of the same text), with no memo left from earlier lints."""
    view = snap.preprocessor("f")
    with Database().active():  # no memo of the host's, none left for it
        diags = lint_tree("f", snap.text("f"), snap.tree("f"), options, preprocessor=view, suppress=False)
    return suppress_all("f", snap.text("f"), diags, options)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_incremental_lint_equals_full_while_broken(data):
    """Unsettled trees too: a syntax error in one function can change how another one
    parses, and the incremental result must follow the tree it was given (such trees are
    kept only with `reparse_broken=False`; the editor reads a fresh parse)."""
    options = LintOptions(target=Target.preset(data.draw(st.sampled_from(["CL1.2", "CL2.0"]))))
    host = Host(options, reparse_broken=False)
    host.set_file("f", data.draw(st.sampled_from([BASE, SCOPED, MACROS])))
    host.snapshot().diagnostics("f")
    for _ in range(data.draw(st.integers(1, 8))):
        text = host.snapshot().text("f")
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, data.draw(st.sampled_from(PIECES)))]}))
        if data.draw(st.booleans()):
            host.settle("f")
        snap = host.snapshot()
        assert snap.diagnostics("f") == full_on_tree(snap, options)


def test_error_elsewhere_that_reparses_a_kernel_is_followed() -> None:
    """Typing in one function can make tree-sitter read a call in another kernel as a
    macro invocation (it did with the grammar of 2026-11); that kernel is re-analysed
    rather than kept from the cache."""
    options = LintOptions(target=Target.preset("CL1.2"))
    host = Host(options)
    host.set_file("f", BASE)
    assert sum(d.code == "CL114" for d in host.snapshot().diagnostics("f")) == 3
    host.apply_change(Change(edits={"f": [TextEdit(118, 126, b"(local float *)")]}))
    snap = host.snapshot()
    assert snap.diagnostics("f") == full_on_tree(snap, options)


def test_edit_in_one_kernel_reanalyses_only_what_depends_on_it() -> None:
    host = Host(LintOptions(target=Target.preset("CL2.0")))
    host.set_file("f", BASE)
    host.snapshot().diagnostics("f")
    pos = BASE.index(b"local int *p")
    host.apply_change(Change(edits={"f": [TextEdit(pos, pos, b"int k = 1; ")]}))
    snap = host.snapshot()
    assert snap.diagnostics("f") == full(snap.text("f"), LintOptions(target=Target.preset("CL2.0")))
    stats = snap.lint_stats("f")
    # only kernel b: its call to 'helper' reads as before, so helper's other caller
    # (kernel a) keeps its results
    assert stats["functions"] == 7 and stats["reanalysed"] == 1


def test_changed_call_site_reanalyses_the_helpers_other_callers() -> None:
    """Kernel e now passes a '__local' pointer to 'unqualified': the fix offered at
    kernel c's call (qualify the parameter '__global') is no longer safe."""
    options = LintOptions(target=Target.preset("CL1.2"))
    host = Host(options)
    host.set_file("f", BASE)
    before = [d for d in host.snapshot().diagnostics("f") if d.code == "CL114"]
    pos = BASE.index(b"unqualified(y)") + len(b"unqualified(")
    host.apply_change(Change(edits={"f": [TextEdit(pos, pos + 1, b"z")]}))
    snap = host.snapshot()
    after = snap.diagnostics("f")
    assert after == full(snap.text("f"), options)
    at_c = [d for d in after if d.code == "CL114" and d.span.start < pos]
    assert before[1].fix is not None and at_c[-1].fix is None
    assert snap.lint_stats("f")["reanalysed"] >= 2  # e, then c


def test_directive_moved_between_bodies_is_a_skeleton_change() -> None:
    """An `#endif` moved from one body to a later one (one change, two edits) makes the
    functions in between inactive: directives in bodies belong to the skeleton."""
    options = LintOptions(target=Target.preset("CL1.2"))
    text = BASE.replace(b"    int lid = get_local_id(0);\n", b"    int lid = get_local_id(0);\n#ifndef __OPENCL_VERSION__\n#endif\n")
    text = text.replace(b"kernel void c(global int *x) { unqualified(x); }",
                        b"kernel void c(global int *x) {\n    unqualified(x);\n}")
    host = Host(options)
    host.set_file("f", text)
    assert any(d.code == "CL102" for d in host.snapshot().diagnostics("f"))  # in kernel b
    endif = text.index(b"#endif\n")
    into_c = text.index(b"    unqualified(x);\n}") + len(b"    unqualified(x);\n")
    # edits apply in order, each to the text the previous one left
    host.apply_change(Change(edits={"f": [TextEdit(into_c, into_c, b"#endif\n"),
                                          TextEdit(endif, endif + len(b"#endif\n"), b"")]}))
    snap = host.snapshot()
    assert snap.diagnostics("f") == full(snap.text("f"), options)
    assert not any(d.code == "CL102" for d in snap.diagnostics("f"))


def _cl2(diags: list) -> list[tuple[str, str]]:
    return [(d.code, d.message.split(",")[0]) for d in diags if d.code.startswith("CL2")]


def test_changed_define_of_a_barrier_macro_is_followed() -> None:
    """The helper's summary and both kernels' findings read the macro: redefining it
    changes them, and a later edit in one body keeps the others right."""
    options = LintOptions(target=Target.preset("CL1.2"))
    host = Host(options)
    host.set_file("f", MACROS)
    before = _cl2(host.snapshot().diagnostics("f"))
    assert ("CL203", "'sync_helper' synchronises the work-group but may not be reached by every work-item") in before
    assert ("CL201", "'SYNC' expands to 'barrier'") in before
    text = MACROS
    for old, new in [(b"#define SYNC() barrier(CLK_LOCAL_MEM_FENCE)", b"#define SYNC()"),
                     (b"    size_t g", b"    int j = 0;\n    size_t g"),
                     (b"#define SYNC()\n", b"#define SYNC() work_group_barrier(CLK_LOCAL_MEM_FENCE)\n"),
                     (b"out[lid] = t[lid] * 0.5;", b"out[lid] = t[lid];")]:
        pos = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(pos, pos + len(old), new)]}))
        text = text[:pos] + new + text[pos + len(old):]
        snap = host.snapshot()
        assert snap.diagnostics("f") == full(text, options)
        if new == b"#define SYNC()":
            # kernel a's own barrier is reached by all (kernel b's read of d's bytes through a
            # float view, in every work-item, races its d[0] store: CL211, not divergence)
            assert [c for c in _cl2(snap.diagnostics("f")) if c[0].startswith("CL20")] == []
    after = _cl2(host.snapshot().diagnostics("f"))
    assert ("CL201", "'SYNC' expands to 'work_group_barrier'") in after
    assert ("CL203", "'sync_helper' synchronises the work-group but may not be reached by every work-item") in after


def test_changed_header_define_is_followed() -> None:
    """A macro from an included header: the file's text does not change, the header's
    `#define` does (an open buffer, say). Functions the next edit does not touch must
    not keep findings the old definition made."""
    headers = {"sync.h": b"#define SYNC_THREADS() barrier(CLK_LOCAL_MEM_FENCE)\n"}
    options = LintOptions(select=("CL2",))
    host = Host(options, include_resolver=lambda name, angled, including: (name, headers[name]))
    src = b"""#include "sync.h"
kernel void k1(local float *t) { if (get_local_id(0) < 4) SYNC_THREADS(); }
kernel void k2(local float *t) { if (get_local_id(0) < 4) SYNC_THREADS(); }
"""
    host.set_file("f", src)
    assert [d.code for d in host.snapshot().diagnostics("f")] == ["CL201", "CL201"]
    headers["sync.h"] = b"#define SYNC_THREADS()\n"
    pos = src.index(b"< 4")
    host.apply_change(Change(edits={"f": [TextEdit(pos, pos, b" ")]}))  # in k1 only
    assert host.snapshot().diagnostics("f") == []


def test_edit_in_a_kernel_keeps_its_implicit_generic_conversions() -> None:
    """CL301 on a `__global` pointer converted to an unqualified one (analysis/gating/generic.py)
    in the re-analysed function: a focused run used to find none, so an edit inside the
    kernel dropped them where `cllint check` reports them (found by the LSP fuzz, seed 1005)."""
    src = b"""void scale(float *p, float s) { *p *= s; }
kernel void k(global float *x) {
    scale(x, 2.0f);
    float *p = x;
    *p = 1.0f;
}
kernel void other(global float *y) { y[0] = 1.0f; }
"""
    options = LintOptions(select=("CL301",))
    host = Host(options)
    host.set_file("f", src)
    (d,) = host.snapshot().diagnostics("f")  # one report per need and function, the other use a note
    assert d.span.start == src.index(b"x, 2") and [n.span.start for n in d.notes] == [src.index(b"p = x")]
    pos = src.index(b"*p = 1.0f")
    host.apply_change(Change(edits={"f": [TextEdit(pos, pos, b"int j = 0; ")]}))
    snap = host.snapshot()
    assert snap.diagnostics("f") == full(snap.text("f"), options)
    assert len(snap.diagnostics("f")) == 1 and len(snap.diagnostics("f")[0].notes) == 1
    assert snap.lint_stats("f")["reanalysed"] == 1  # kernel k, focused


GATED_MACROS = b"""#define REAL float
#define SUM(x) (x)
kernel void a(global REAL *x, global half *h) { REAL s = x[0]; x[1] = SUM(s); x[2] = vload_half(0, h); }
kernel void b(global REAL *y) { REAL t = y[0]; y[1] = t; }
"""


def test_changed_define_of_a_gated_type_is_followed() -> None:
    """CL302 through macros (analysis/gating/macro_types.py): redefining `REAL` as `double`
    reaches both kernels, and a later edit in one body keeps the other's reports."""
    options = LintOptions(target=Target.preset("CL3.0").apply_overrides("-all"), mode="target", select=("CL3",))
    host = Host(options)
    host.set_file("f", GATED_MACROS)
    assert host.snapshot().diagnostics("f") == []
    text = GATED_MACROS
    for old, new in [(b"#define REAL float", b"#define REAL double"),
                     (b"y[1] = t;", b"y[1] = t + 1;"),
                     (b"#define SUM(x) (x)", b"#define SUM(x) work_group_reduce_add(x)"),
                     (b"x[2] = vload_half(0, h);", b"h[0] = h[1];")]:
        pos = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(pos, pos + len(old), new)]}))
        text = text[:pos] + new + text[pos + len(old):]
        assert host.snapshot().diagnostics("f") == full(text, options)
    assert {d.code for d in host.snapshot().diagnostics("f")} == {"CL302"}
    # kernel a: its head, `REAL s`, SUM and the half store; kernel b: its head and `REAL t`
    assert len(host.snapshot().diagnostics("f")) == 6
