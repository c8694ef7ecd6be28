"""Random edit sequences through Host.apply_change end where a from-scratch parse does."""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from cllint.analysis.db import Change, Host, TextEdit

BASE = b"""#define N 4
kernel void k(global float *a, local float *t) {
    int i = get_global_id(0);
    if (i < N) { t[i] = a[i]; }
    barrier(CLK_LOCAL_MEM_FENCE);
    a[i] = t[i] * 2.0f; // cllint: ignore[CL201]
}
"""
PIECES = [b";", b"{", b"}", b"(", b")", b"x", b" ", b"\n", b"int j = 0;", b"global ", b"/*", b"*/",
          "é😀".encode(), b"#if X\n", b"#endif\n", b"barrier(CLK_GLOBAL_MEM_FENCE);"]


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_incremental_equals_scratch(data):
    host = Host()
    host.set_file("f", BASE)
    text = BASE
    for _ in range(data.draw(st.integers(1, 12))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 12)))
        new = data.draw(st.sampled_from(PIECES))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        text = text[:start] + new + text[end:]
    # Error-free trees equal a fresh parse at once; broken ones once settled (the
    # server settles when the user pauses), since error recovery depends on the old tree.
    if not host.snapshot().is_canonical("f"):
        assert host.settle("f")
    inc = host.snapshot()
    assert inc.is_canonical("f")
    scratch = Host()
    scratch.set_file("f", text)
    ref = scratch.snapshot()
    assert inc.text("f") == text
    assert str(inc.tree("f").root_node) == str(ref.tree("f").root_node)
    assert inc.diagnostics("f") == ref.diagnostics("f")


def test_dropped_trees_come_back_and_keep_results() -> None:
    """With a tree capacity, least recently used files lose their tree (memory) and get
    it back on use; diagnostics and incremental edits stay what they were."""
    from cllint.analysis.db import Change, Host, TextEdit

    texts = {f"f{i}": b"kernel void k%d(global float *p) { p[0] = 1.0; }\n" % i for i in range(5)}
    host = Host(tree_capacity=2)
    for f, t in texts.items():
        host.set_file(f, t)
    before = {f: host.snapshot().diagnostics(f) for f in texts}
    kept = [f for f in texts if host._files[f].tree is not None]
    assert len(kept) == 2
    # an edit to a file whose tree was dropped parses it again first
    pos = texts["f0"].index(b"p[0]")
    host.apply_change(Change(edits={"f0": [TextEdit(pos, pos, b"p[1] = 2.0; ")]}))
    snap = host.snapshot()
    assert snap.tree("f0").root_node.text == snap.text("f0")
    fresh = Host()
    fresh.set_file("f0", snap.text("f0"))
    assert snap.diagnostics("f0") == fresh.snapshot().diagnostics("f0")
    for f in ("f1", "f2"):
        assert snap.tree(f).root_node.end_byte == len(texts[f])
        assert host.snapshot().diagnostics(f) == before[f]
    assert sum(s.tree is not None for s in host._files.values()) <= 2


def test_tree_text_budget_keeps_trees_by_size() -> None:
    """With a budget for the texts of the files that keep a tree, large files keep fewer
    trees and small ones more; the two most recent keep theirs whatever their size."""
    from cllint.analysis.db import Host

    body = b"kernel void k(global float *p) { p[0] = 1.0f; }\n"
    small = {f"s{i}": body for i in range(6)}
    big = {f"b{i}": body * 40 for i in range(4)}  # ~2 KB each
    host = Host(tree_capacity=12, tree_text_budget=4 * 1024)
    for f, t in small.items():
        host.set_file(f, t)
    assert all(host._files[f].tree is not None for f in small), "six small files fit the budget"
    for f, t in big.items():
        host.set_file(f, t)
    kept = [f for f, s in host._files.items() if s.tree is not None]
    assert kept and set(kept) <= {"b2", "b3", "b1"} and {"b2", "b3"} <= set(kept)
    assert sum(len(host._files[f].text) for f in kept) <= 4 * 1024 or len(kept) == 2
    # a file whose tree was dropped reads the same as before
    assert host.snapshot().tree("s0").root_node.text == small["s0"]
