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


def scratch_snapshot(text: bytes):
    scratch = Host()
    scratch.set_file("f", text)
    return scratch.snapshot()


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_incremental_equals_scratch(data):
    """Every revision a snapshot reads, broken or not, reads as a fresh parse of its text
    (what `cllint check` parses); revisions nobody read in between change nothing."""
    host = Host()
    host.set_file("f", BASE)
    text = BASE
    for _ in range(data.draw(st.integers(1, 12))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 12)))
        new = data.draw(st.sampled_from(PIECES))
        host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
        text = text[:start] + new + text[end:]
        if data.draw(st.booleans()):  # the server analyses some versions, not every one
            inc, ref = host.snapshot(), scratch_snapshot(text)
            assert str(inc.tree("f").root_node) == str(ref.tree("f").root_node)
            assert inc.diagnostics("f") == ref.diagnostics("f")
    inc, ref = host.snapshot(), scratch_snapshot(text)
    assert inc.text("f") == text
    assert str(inc.tree("f").root_node) == str(ref.tree("f").root_node)
    assert inc.is_canonical("f")
    assert inc.diagnostics("f") == ref.diagnostics("f")


def test_history_dependent_trees_are_kept_when_asked() -> None:
    """`reparse_broken=False`: the incremental tree with errors stays until `settle`, which
    then reads as a fresh parse."""
    host = Host(reparse_broken=False)
    host.set_file("f", BASE)
    pos = BASE.index(b"kernel")
    host.apply_change(Change(edits={"f": [TextEdit(pos, pos, b"int (")]}))
    assert not host.snapshot().is_canonical("f")
    assert host.settle("f") and host.snapshot().is_canonical("f")
    text = BASE[:pos] + b"int (" + BASE[pos:]
    assert str(host.snapshot().tree("f").root_node) == str(scratch_snapshot(text).tree("f").root_node)


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
