"""The semantic family's file-level items (type names outside functions) are read from the
focus's offsets (`walk.items_in`), not by testing each of the root's named children: a
keystroke tested all of basic.cl's 118 items (issue 32, session 22). Held-out cases:
test_semantic_items_focus_heldout.py."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import in_ranges
from cllint.analysis.semantic import findings
from cllint.analysis.target import Target
from cllint.grammar import parse

OPTIONS = LintOptions(target=Target.preset("CL1.2"), select=("CL0",))
KERNELS = b"".join(b"kernel void k%d(global float *o) { o[0] = %d.0f; }\n" % (i, i) for i in range(20))
SRC = b"floot g;\n" + KERNELS + b"#ifdef X\nfloar a;\n#endif\nflaot c;\n"  # near misses: CL025


def _full(src: bytes) -> list:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return host.snapshot().diagnostics("k.cl")


def _findings(src: bytes, focus: list[tuple[int, int]] | None) -> list:
    model = SemanticModel(parse(src), src, Target.preset("CL1.2"))
    return sorted((f.code, f.start, f.end, f.message) for f in findings(model, None,
                                                                      lambda n: in_ranges(focus, n.start_byte), focus))


def test_semantic_findings_equal_after_body_edit() -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", SRC)
    assert sum(d.code == "CL025" for d in host.snapshot().diagnostics("k.cl")) == 2  # (`#ifdef X`: inactive)
    at = SRC.index(b"o[0] = 7.0f;")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"float z = 1.0f; ")]}))
    assert host.snapshot().diagnostics("k.cl") == _full(SRC[:at] + b"float z = 1.0f; " + SRC[at:])


def test_semantic_file_item_edit_reported() -> None:
    host = Host(OPTIONS)
    host.set_file("k.cl", SRC)
    host.snapshot().diagnostics("k.cl")
    at = SRC.index(b"flaot c") + 7
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"c")]}))
    got = host.snapshot().diagnostics("k.cl")
    new = SRC[:at] + b"c" + SRC[at:]
    assert got == _full(new) and any("'flaot'" in d.message for d in got)


def test_semantic_items_unfocused_all_named() -> None:
    got = _findings(SRC, None)
    assert [c for c, *_ in got if c == "CL025"] == ["CL025"] * 3


BROKEN = b"floot g;\nint ;\nfloat f(float x { return x; }\nflaot h\nkernel void k(global float *o) { o[0] = 1.0f; }\n"


def test_semantic_error_item_in_focus() -> None:
    whole = _findings(BROKEN, None)
    for s in range(0, len(BROKEN), 3):
        for e in (s + 5, len(BROKEN)):
            focus = [(s, min(e, len(BROKEN)))]
            # what the root's named children, tested one by one, gave
            assert _findings(BROKEN, focus) == _old(BROKEN, focus), focus
    assert whole == _old(BROKEN, None)


def _old(src: bytes, focus: list[tuple[int, int]] | None) -> list:
    """The findings as the filter over the root's named children gave them (the reference)."""
    from cllint.analysis import semantic
    from cllint.analysis.model import walk

    real = walk.items_in
    try:  # the reference: every named child of the root tested one by one
        semantic.items_in = lambda root, containers, ranges: [  # type: ignore[attr-defined]
            c for c in root.children if in_ranges(ranges, c.start_byte)]
        return _findings(src, focus)
    finally:
        semantic.items_in = real  # type: ignore[attr-defined]


def test_semantic_items_inside_ifdef_unchanged() -> None:
    at = SRC.index(b"#ifdef")
    focus = [(at, SRC.index(b"flaot"))]
    got = _findings(SRC, focus)
    assert [m for *_, m in got if "'floar'" in m] and not [m for *_, m in got if "'flaot'" in m or "'floot'" in m]
    assert got == _old(SRC, focus)
