"""CL21x incrementally (analysis/incremental.py): after random edits, the races the host
reports equal a full lint's. A kernel's races read its helpers' bodies (accesses through
the pointers passed, barriers inside) and the macros its barrier flags name, so an edit
in a helper or a `#define` must reach the kernels that call or use them. The random-edit
loops are tests/test_incremental_focus.py's."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.lint import LintOptions
from test_incremental_focus import _typed, random_edits_equal_full, random_edits_equal_full_while_broken

BASE = b"""#define LFENCE CLK_LOCAL_MEM_FENCE
#define GFENCE CLK_GLOBAL_MEM_FENCE
void store(local float *l, int i, float v) { l[i] = v; }
float load(local const float *l, int i) { return l[i]; }
void step(local float *l, int i, int s) { if (i < s) l[i] += l[i + s]; }
void sync_step(local float *l, int i, int s) { step(l, i, s); barrier(LFENCE); }
kernel void k1(global const float *in, global float *out) {
    local float tile[16];
    int lid = get_local_id(0);
    store(tile, lid, in[get_global_id(0)]);
    barrier(LFENCE);
    out[get_global_id(0)] = load(tile, (lid + 1) & 15);
}
kernel void k2(global const float *in, global float *out, local float *l) {
    int lid = get_local_id(0);
    local float *mine = l + lid;
    mine[0] = in[get_global_id(0)];
    barrier(GFENCE);
    out[get_global_id(0)] = l[(lid + 1) % get_local_size(0)];
    barrier(LFENCE);
    for (int s = 8; s > 0; s >>= 1)
        sync_step(l, lid, s);
    if (lid == 0) out[get_group_id(0)] = l[0];
}
kernel void k3(global float *out, local float *l) {
    int lid = get_local_id(0);
    local float *row = &l[lid];
    row[0] = lid;
    out[lid] = l[(lid + 1) & 15];
}
"""
# Barriers added and removed (in kernels and helpers), indices shifted, helper calls and
# fence macros typed, pointers derived and redefined.
PIECES = [b";", b"{", b"}", b" ", b"\n", b"x", b"1", b"+ 1", b"barrier(LFENCE);", b"barrier(GFENCE);",
          b"barrier(CLK_LOCAL_MEM_FENCE);", b"store(tile, lid, 1.0f);", b"step(l, lid, 4);", b"l[lid] = 0.0f;",
          b"local float *p = l + 1;", b"p[lid] = 2.0f;", b"#define LFENCE CLK_GLOBAL_MEM_FENCE\n",
          b"#undef GFENCE\n", b"if (lid == 0) return;", b"lid", b"(tile, lid + 1, 0.0f)"]
PIECES_BROKEN = PIECES
OPTIONS = LintOptions(select=("CL21",))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_incremental_races_equal_full(data):
    random_edits_equal_full(data, BASE, PIECES, OPTIONS)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_incremental_races_equal_full_while_broken(data):
    random_edits_equal_full_while_broken(data, BASE, PIECES_BROKEN, OPTIONS)


def _races(diags: list) -> list[tuple[str, str]]:
    return sorted((d.code, d.message.split(" while")[0]) for d in diags)


def test_base_reports_what_it_should() -> None:
    got, full = _typed(BASE, [], OPTIONS)
    assert got == full
    # k2: the fence macro names global memory, the reduction reads mine[0] of others
    # through the helper, and its group's item 0 stores the sum at out[group], where work-group
    # 0's item 1 stores out[gid] (two work-groups, two values: round 4); k3: a pointer to its own
    # slot, then the neighbour's read
    assert _races(got) == [("CL210", "work-item 1 writes 'l[1]'"), ("CL211", "work-item 1 of work-group 0 writes 'out[1]'"),
                           ("CL212", "work-item 1 writes 'l[1]'")]


def test_barrier_removed_from_a_helper_reaches_its_callers() -> None:
    got, full = _typed(BASE, [(b"step(l, i, s); barrier(LFENCE);", b"step(l, i, s);")], OPTIONS)
    assert got == full
    assert ("CL210", "work-item 4 updates 'l[4]' in 'step'") in _races(got)


def test_index_changed_inside_a_helper_reaches_its_callers() -> None:
    # k1's barrier goes first; then only the helper's text changes, and k1 must follow it
    got, full = _typed(BASE, [(b"barrier(LFENCE);\n    out", b"out"), (b"{ l[i] = v; }", b"{ l[i ^ 1] = v; }")],
                       OPTIONS)
    assert got == full
    assert ("CL210", "work-item 3 writes 'tile[2]' in 'store'") in _races(got)


def test_redefined_fence_macro_reaches_its_users() -> None:
    got, full = _typed(BASE, [(b"#define LFENCE CLK_LOCAL_MEM_FENCE", b"#define LFENCE CLK_GLOBAL_MEM_FENCE")],
                       OPTIONS)
    assert got == full
    assert [c for c, _ in _races(got)].count("CL212") == 2  # k1 now, and k2 as before
