"""The CL2xx and CL3xx rules with a focus (analysis/incremental.py re-analyses the edited
functions only): they read the file-wide facts (callee summaries, transitive
synchronisation, flat dimensions, the names the file defines) off the top-level items
carried over from the previous tree (analysis/toplevel.py), and report for
the functions the focus meets. The result must equal a full lint whatever the edits."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.gating.uses import collect_uses_and_literals
from cllint.analysis.lint import LintOptions, lint_tree, suppress_all
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.analysis import toplevel
from cllint.analysis.uniformity import summaries
from cllint.analysis.uniformity.summaries import analyse_file
from cllint.grammar import parse

# Barriers in callees reached from callers (two levels), a kernel whose branch on
# get_global_id(1) is uniform only while every local-id query names dimension 0 (flat
# dimensions; the one query is in that kernel), fp64 uses inside and outside
# `#ifdef cl_khr_fp64`, double literals, a definition that shadows a gated built-in.
BASE = b"""#ifdef cl_khr_fp64
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
void leaf_sync(local float *t) { t[0] = 0.0f; barrier(CLK_LOCAL_MEM_FENCE); }
void mid_sync(local float *t, int n) { if (n > 0) leaf_sync(t); }
int lane(void) { return (int)get_sub_group_local_id(); }
uint get_sub_group_size(void) { return 32u; }
#ifdef cl_khr_fp64
double twice(double x) { return x * 2.0; }
#endif
kernel void k1(global float *o, local float *t) {
    int l = get_local_id(0) + lane();
    if (get_global_id(1) > 3) {
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l < 4) leaf_sync(t);
    o[l] = 0.5 + get_sub_group_size();
}
kernel void k2(global double *d, local float *t) {
#ifdef cl_khr_fp64
    d[0] = twice(1.5);
#endif
    if (get_group_id(0) > 1) mid_sync(t, 3);
    mid_sync(t, get_sub_group_local_id());
    work_group_barrier(CLK_LOCAL_MEM_FENCE);
}
kernel void k3(global float *o, read_only image2d_t img, sampler_t s) {
    o[0] = 1.0 + M_PI;
    o[1] = read_imagef(img, s, (int2)(0, 0)).x;
    if (get_sub_group_local_id() == 0) sub_group_barrier(CLK_LOCAL_MEM_FENCE);
}
"""
# The flat dimensions change with k1's own text only: no local-id query nor lone digit
# among the pieces. A local-id query typed into a function that neither is nor calls k1
# changes k1's findings: the incremental driver then runs the whole file (the test below).
PIECES = [b";", b"{", b"}", b"x", b" ", b"\n", b"int j = 0;", b"barrier(CLK_LOCAL_MEM_FENCE);",
          b"leaf_sync(t);", b"mid_sync(t, 1);", b"if (get_global_id(0)) return;", b"1.0", b"2.5e3",
          b"#ifdef cl_khr_fp64\n", b"#endif\n", b"double y = 1.0;", b"(double)", b"half h;",
          b"get_sub_group_size()", b"M_PI", b"work_group_reduce_add(t[0])", b"lane()", b"n"]
# Not in unsettled trees: CL309's fix goes before the enclosing top-level item, which a
# syntax error elsewhere can change without the driver re-analysing the use's function.
PIECES_BROKEN = [p for p in PIECES if p != b"half h;"]
OPTIONS = [LintOptions(target=Target.preset("CL1.2"), extend_select=("CL308",)),
           LintOptions(target=Target.preset("CL2.0")), LintOptions(target=Target.preset("CL2.0"), mode="target")]


class _FromScratch:
    """Within: a database of its own, so no memo and no carried item (analysis/database.py;
    the incremental host keeps its own)."""

    def __enter__(self) -> None:
        self.active = Database().active()
        self.active.__enter__()

    def __exit__(self, *exc: object) -> None:
        self.active.__exit__(*exc)


def _fresh(text: bytes, options: LintOptions) -> list:
    with _FromScratch():
        h = Host(options)
        h.set_file("f", text)
        return h.snapshot().diagnostics("f")


def _on_tree(snap, options: LintOptions) -> list:
    """A full lint of the snapshot's own tree (an unsettled tree may read differently
    from a fresh parse of the same text)."""
    with _FromScratch():
        diags = lint_tree("f", snap.text("f"), snap.tree("f"), options, preprocessor=snap.preprocessor("f"),
                          suppress=False)
        return suppress_all("f", snap.text("f"), diags, options)


def random_edits_equal_full(data: st.DataObject, base: bytes, pieces: list[bytes], options: LintOptions) -> None:
    """Keystroke-sized random edits to `base`: after each, the incremental diagnostics
    equal a full lint of the host's tree (settled first, so it is canonical)."""
    host = Host(options)
    text = base
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    for _ in range(data.draw(st.integers(1, 6))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        new = data.draw(st.sampled_from(pieces))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        text = text[:start] + new + text[end:]
        snap = host.snapshot()
        if not snap.is_canonical("f"):
            host.settle("f")
            snap = host.snapshot()
        got = snap.diagnostics("f")
        assert got == _on_tree(snap, options)
        # The same as a fresh parse's, where the host's tree reads as one (it need not:
        # after `... float *  local float *t)` typed in a kernel head it did not).
        if str(snap.tree("f").root_node) == str(parse(text).root_node):
            assert got == _fresh(text, options)


def random_edits_equal_full_while_broken(data: st.DataObject, base: bytes, pieces: list[bytes],
                                         options: LintOptions) -> None:
    """The same on unsettled trees (kept by `reparse_broken=False`; the editor reads a
    fresh parse): the incremental result follows the tree it was given."""
    host = Host(options, reparse_broken=False)
    host.set_file("f", base)
    host.snapshot().diagnostics("f")
    for _ in range(data.draw(st.integers(1, 8))):
        text = host.snapshot().text("f")
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 8)))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, data.draw(st.sampled_from(pieces)))]}))
        if data.draw(st.booleans()):
            host.settle("f")
        snap = host.snapshot()
        assert snap.diagnostics("f") == _on_tree(snap, options)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_focused_barriers_and_features_equal_full(data):
    random_edits_equal_full(data, BASE, PIECES, data.draw(st.sampled_from(OPTIONS)))


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_focused_barriers_and_features_equal_full_while_broken(data):
    random_edits_equal_full_while_broken(data, BASE, PIECES_BROKEN, data.draw(st.sampled_from(OPTIONS)))


def _typed(text: bytes, edits: list[tuple[bytes, bytes]], options: LintOptions | None = None) -> tuple[list, list]:
    """Apply each (old, new) replacement as one keystroke-sized change; the incremental
    diagnostics after the last one, and a fresh full lint of the same text."""
    options = options or OPTIONS[0]
    host = Host(options)
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    for old, new in edits:
        pos = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(pos, pos + len(old), new)]}))
        text = text[:pos] + new + text[pos + len(old):]
    return host.snapshot().diagnostics("f"), _fresh(text, options)


def _codes(diags: list) -> list[str]:
    return sorted(d.code for d in diags)


def test_barrier_removed_from_a_callee_updates_its_callers() -> None:
    before, _ = _typed(BASE, [])
    assert "CL203" in _codes(before)  # k1: leaf_sync under `l < 4`
    inc, full = _typed(BASE, [(b"t[0] = 0.0f; barrier(CLK_LOCAL_MEM_FENCE);", b"t[0] = 0.0f;")])
    assert inc == full
    assert "CL203" not in _codes(inc)


def test_barrier_added_to_a_callee_two_levels_down() -> None:
    src = BASE.replace(b"t[0] = 0.0f; barrier(CLK_LOCAL_MEM_FENCE);", b"t[0] = 0.0f;")
    inc, full = _typed(src, [(b"{ t[0] = 0.0f; }", b"{ t[0] = 0.0f; barrier(CLK_LOCAL_MEM_FENCE); }")])
    assert inc == full
    assert _codes(inc).count("CL203") >= 2  # k1 (leaf_sync) and k2 (mid_sync with a lane id)


# The local-id query in a callee of k1: an edit there re-analyses k1.
FLAT = BASE.replace(b"int lane(void) { return (int)get_sub_group_local_id(); }",
                    b"int lane(void) { return get_local_id(0); }").replace(b"get_local_id(0) + lane()", b"lane()")


def test_local_id_dimension_in_a_callee_changes_the_flat_dimensions() -> None:
    """`lane` names dimension 0 only: k1's branch on get_global_id(1) is uniform. Once it
    names dimension 1, the branch diverges; k1 calls `lane`, so it is re-analysed."""
    before, _ = _typed(FLAT, [])
    assert not [d for d in before if d.code == "CL201"]
    inc, full = _typed(FLAT, [(b"return get_local_id(0);", b"return get_local_id(1);")])
    assert inc == full
    assert [d.code for d in inc if d.code == "CL201"] == ["CL201"]


def test_local_id_dimension_in_an_unrelated_function_changes_the_flat_dimensions() -> None:
    inc, full = _typed(FLAT, [(b"o[0] = 1.0 + M_PI;", b"o[0] = get_local_id(1);")])
    assert inc == full


def test_guard_typed_around_a_double_use_and_literal() -> None:
    line = b"    o[0] = 1.0 + M_PI;\n"
    inc, full = _typed(BASE, [(line, b"#ifdef cl_khr_fp64\n" + line), (b"    o[1] = read", b"#endif\n    o[1] = read")],
                       LintOptions(target=Target.preset("CL1.2")))
    assert inc == full
    assert not [d for d in inc if d.code == "CL301" and "M_PI" in d.message]


def test_double_literal_and_double_use_typed_in_a_body() -> None:
    preview = LintOptions(target=Target.preset("CL1.2"), extend_select=("CL308",))
    inc, full = _typed(BASE, [(b"    mid_sync(t, get_sub", b"    float q = 2.5;\n    mid_sync(t, get_sub"),
                              (b"float q = 2.5;", b"float q = 2.5; double w = q;")], preview)
    assert inc == full
    assert any(d.code == "CL308" and "'2.5'" in d.message for d in _typed(BASE, [
        (b"    mid_sync(t, get", b"    float q = 2.5;\n    mid_sync(t, get")], preview)[0])


def test_shadowing_definition_renamed_in_its_head_is_a_full_run() -> None:
    assert not any("get_sub_group_size" in d.message for d in _typed(BASE, [])[0])
    inc, full = _typed(BASE, [(b"uint get_sub_group_size(void)", b"uint my_size(void)")])
    assert inc == full
    # (the sub-group need is one report per file: the renamed use is its message or a note)
    assert any(d.code == "CL301" and any("get_sub_group_size" in t for t in (d.message, *(n.message for n in d.notes)))
               for d in inc)


# -- the pieces: analyse_file and collect_uses with a focus ------------------------------


def _function_range(src: bytes, head: bytes) -> tuple[int, int]:
    start = src.index(head)
    depth, i = 0, src.index(b"{", start)
    while True:
        depth += {ord("{"): 1, ord("}"): -1}.get(src[i], 0)
        i += 1
        if depth == 0:
            return start, i


@pytest.mark.parametrize("head", [b"kernel void k1", b"kernel void k2", b"kernel void k3", b"void leaf_sync"])
def test_analyse_file_with_a_focus_is_the_full_findings_inside_it(head: bytes) -> None:
    tree = parse(BASE)
    whole = analyse_file(tree, BASE).findings
    focus = [_function_range(BASE, head)]
    focused = analyse_file(tree, BASE, focus, "t").findings
    a, b = focus[0]
    assert focused == [f for f in whole if a <= f.start < b]
    assert any(a <= f.start < b for f in whole) or head == b"void leaf_sync"


def test_collect_uses_with_a_focus_agrees_on_definitions_elsewhere() -> None:
    """Names defined outside the focus come off the items: carried over, or queried."""
    tree = parse(BASE)
    toplevel.forget()
    whole, _ = collect_uses_and_literals(tree, BASE, None, None, "u")
    for head in (b"kernel void k1", b"kernel void k3"):
        focus = [_function_range(BASE, head)]
        a, b = focus[0]
        for carried in (True, False):
            if not carried:
                toplevel.forget()
            focused, _ = collect_uses_and_literals(tree, BASE, None, focus, "u")
            assert [u for u in focused if a <= u.start < b] == [u for u in whole if a <= u.start < b]
    assert not [u for u in whole if u.name == "get_sub_group_size"]  # shadowed


# -- toplevel: which items carry over ------------------------------------------------------


def _items(src: bytes, file: str = "t") -> toplevel.Items:
    return toplevel.items_of(parse(src), src, file)


def test_unchanged_items_carry_over_and_the_edited_one_does_not() -> None:
    toplevel.forget()
    first = _items(BASE)
    assert len(first.items) > 10
    pos = BASE.index(b"if (l < 4)")
    edited = BASE[:pos] + b"int j = 0; " + BASE[pos:]
    second = _items(edited)
    new = [k for k, (a, b) in enumerate(zip(first.items, second.items)) if a is not b]
    assert len(new) == 1 and second.starts[new[0]] == BASE.index(b"kernel void k1")
    # a same-length replacement: the same shape, not the same text
    third = _items(edited.replace(b"o[0] = 1.0", b"o[0] = 2.0"))
    changed = [k for k, (a, b) in enumerate(zip(second.items, third.items)) if a is not b]
    assert len(changed) == 1 and third.starts[changed[0]] == edited.index(b"kernel void k3")


def test_an_inserted_item_shifts_the_rest() -> None:
    toplevel.forget()
    first = _items(BASE)
    extra = b"int spare(void) { return 1; }\n"
    second = _items(extra + BASE)
    assert second.items[1:] == first.items  # every old item, by identity, one further on
    assert second.items[0] not in first.items


def test_files_do_not_share_their_previous_items() -> None:
    toplevel.forget()
    a = _items(BASE, "a")
    b = _items(BASE.replace(b"k1", b"q1"), "b")
    again = _items(BASE, "a")
    assert again.items == a.items
    assert b.items[0] is not a.items[0]


def test_forget_starts_over() -> None:
    first = _items(BASE)
    toplevel.forget()
    assert not set(map(id, _items(BASE).items)) & set(map(id, first.items))


def test_typing_a_statement_before_gated_uses_of_the_same_function() -> None:
    """Keystroke by keystroke, as in an editor: the statements after the typing point
    (a double literal, M_PI, a sub-group built-in, barriers) are carried over, moved."""
    preview = LintOptions(target=Target.preset("CL1.2"), extend_select=("CL308",))
    host = Host(preview)
    text = BASE
    host.set_file("f", text)
    host.snapshot().diagnostics("f")
    at = text.index(b"    o[0] = 1.0 + M_PI;")
    for i, ch in enumerate(b"double v = 2.5 * get_sub_group_size(); "):
        host.apply_change(Change(edits={"f": [TextEdit(at + i, at + i, bytes([ch]))]}))
        text = text[: at + i] + bytes([ch]) + text[at + i :]
        assert host.snapshot().diagnostics("f") == _fresh(text, preview), text[at : at + i + 1]
    assert host.snapshot().lint_stats("f")["reanalysed"] < host.snapshot().lint_stats("f")["functions"]


# leaf_sync and mid_sync call each other: what one sees of the other depends on which
# is analysed first (OpenCL C forbids recursion; the linter must still be consistent).
CYCLE = BASE.replace(b"{ t[0] = 0.0f; barrier", b"{ t[0] = 0.0f; mid_sync(t, 1); barrier")


@pytest.mark.parametrize("head", [b"kernel void k1", b"kernel void k2", b"kernel void k3", b"void mid_sync"])
def test_a_cycle_of_calls_reads_the_same_with_a_focus(head: bytes) -> None:
    tree = parse(CYCLE)
    whole = analyse_file(tree, CYCLE).findings
    a, b = _function_range(CYCLE, head)
    summaries.forget()
    assert analyse_file(tree, CYCLE, [(a, b)], "c").findings == [f for f in whole if a <= f.start < b]


def test_a_call_into_a_cycle_typed_elsewhere() -> None:
    inc, full = _typed(CYCLE, [(b"== 0) sub_group_barrier", b"== 0) leaf_sync(t); sub_group_barrier")])
    assert inc == full


# leaf_sync reaches its barrier through a macro (analysis/uniformity/macros.py).
MACRO = b"#define LOCAL_SYNC() barrier(CLK_LOCAL_MEM_FENCE)\n" + BASE.replace(
    b"t[0] = 0.0f; barrier(CLK_LOCAL_MEM_FENCE);", b"t[0] = 0.0f; LOCAL_SYNC();")


@pytest.mark.parametrize("head", [b"kernel void k1", b"kernel void k2", b"void leaf_sync"])
def test_a_macro_barrier_reads_the_same_with_a_focus(head: bytes) -> None:
    tree = parse(MACRO)
    view = build_view("m", MACRO, target=Target.preset("CL2.0"))
    whole = analyse_file(tree, MACRO, None, "m", view).findings
    assert [f.code for f in whole] == [f.code for f in analyse_file(parse(BASE), BASE).findings]
    a, b = _function_range(MACRO, head)
    summaries.forget()
    assert analyse_file(tree, MACRO, [(a, b)], "m", view).findings == [f for f in whole if a <= f.start < b]


def test_a_macro_barrier_removed_from_a_callee_updates_its_callers() -> None:
    inc, full = _typed(MACRO, [(b"#define LOCAL_SYNC() barrier(CLK_LOCAL_MEM_FENCE)", b"#define LOCAL_SYNC()")])
    assert inc == full
    assert "CL203" not in _codes(inc) and "CL203" in _codes(_typed(MACRO, [])[0])


def test_a_call_glued_to_a_number_keeps_its_caller_in_the_call_graph() -> None:
    # `0.0fmid_sync(t, 1)` typed mid-edit reads as a number and a call: leaf_sync then calls
    # mid_sync, and an edit that breaks mid_sync's call back must re-check leaf_sync's CL407
    # (found by the property test below: the report stayed, from the cache)
    options = OPTIONS[0]
    host = Host(options)
    host.set_file("f", BASE)
    host.snapshot().diagnostics("f")
    for start, end, new in [(116, 116, b"mid_sync(t, 1);"), (0, 7, b"barrier(CLK_LOCAL_MEM_FENCE);"), (230, 238, b";")]:
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        snap = host.snapshot()
        assert snap.diagnostics("f") == _on_tree(snap, options)
    assert b"0.0fmid_sync(t, 1)" in snap.text("f") and b"eaf_sync(t)" in snap.text("f")
