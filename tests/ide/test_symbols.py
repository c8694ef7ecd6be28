"""Semantic tokens and folding ranges, inactive preprocessor regions included."""

from cllint.analysis.ide.symbols import folding_ranges, semantic_tokens
from ide_fixtures import FILE, snapshot

SRC = """#if __OPENCL_C_VERSION__ >= 200
global int counter;
kernel void k2(global int *p) { }

#else
kernel void k(global int *p) { p[0] = get_global_id(0); }
#endif
"""


def test_inactive_lines_are_comment_tokens_and_hide_other_tokens():
    snap, _ = snapshot(SRC, "CL1.2")
    src = snap.text(FILE)
    toks = semantic_tokens(snap.tree(FILE), src, snap.preprocessor(FILE).inactive_ranges())
    got = [(src[t.start:t.end].decode(), t.type, t.modifiers) for t in toks]
    assert got[:2] == [("global int counter;", "comment", ("inactive",)),
                       ("kernel void k2(global int *p) { }", "comment", ("inactive",))]
    assert ("global", "addressSpace", ()) in got[2:] and ("get_global_id", "builtin", ("defaultLibrary",)) in got
    assert [t.start for t in toks] == sorted(t.start for t in toks)


def test_active_branch_flips_with_the_target():
    snap, _ = snapshot(SRC, "CL2.0")
    src = snap.text(FILE)
    inactive = snap.preprocessor(FILE).inactive_ranges()
    toks = semantic_tokens(snap.tree(FILE), src, inactive)
    assert [src[t.start:t.end].decode() for t in toks if t.type == "comment"] == [
        "kernel void k(global int *p) { p[0] = get_global_id(0); }"]
    folds = folding_ranges(snap.tree(FILE), inactive, src)
    assert all(a != src.index(b"kernel void k(") for a, _, _ in folds)  # one line: nothing to fold


def test_multi_line_inactive_region_folds():
    snap, _ = snapshot(SRC, "CL1.2")
    src = snap.text(FILE)
    folds = folding_ranges(snap.tree(FILE), snap.preprocessor(FILE).inactive_ranges(), src)
    assert (src.index(b"global int counter"), src.index(b"\n\n#else") + 1, "region") in folds
