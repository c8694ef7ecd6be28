"""Held-out cases for the semantic family's file-level items read by focus (drawn by
crc32(name) % 3 == 0 before the code; tune cases: test_semantic_items_focus.py)."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import in_ranges
from cllint.analysis.semantic import findings
from cllint.analysis.target import Target
from cllint.grammar import parse

from test_semantic_items_focus import _findings, _old

SRC = (b"".join(b"typedef float t%d;\n" % i for i in range(10))
       + b"".join(b"kernel void k%d(global float *o) { o[0] = %d.0f; }\n" % (i, i) for i in range(30)))


def test_semantic_items_asks_focus_only() -> None:
    model = SemanticModel(parse(SRC), SRC, Target.preset("CL1.2"))
    s = SRC.index(b"kernel void k17")
    focus = [(s, SRC.index(b"\n", s) + 1)]
    asked: list[int] = []

    def in_focus(node):  # noqa: ANN001, ANN202
        asked.append(node.start_byte)
        return in_ranges(focus, node.start_byte)

    assert findings(model, None, in_focus, focus) == []
    assert len(asked) <= 2, len(asked)  # the focused definition, not each of the 40 items


ERRORS = b"}\nfloot g;\n) flaot q;\nkernel void k(global float *o) { o[0] = 1.0f; }\n{ zz_t w; }\n"


def test_semantic_items_root_error_unfocused() -> None:
    assert parse(ERRORS).root_node.has_error
    whole = _findings(ERRORS, None)
    assert whole == _old(ERRORS, None) == _findings(ERRORS, [(0, len(ERRORS))])
    assert any(c == "CL025" for c, *_ in whole)
