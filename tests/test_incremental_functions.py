"""The incremental linter's function table: records reused by text, moved by offset."""

from __future__ import annotations

from tree_sitter import Parser

from cllint.analysis.incremental import top_level_functions
from cllint.grammar import language

SOURCE = b"""float helper(float x) { return x * 2.0f; }

kernel void k(global float *out) {
    out[0] = helper(1.0f);
#define LATE 1
}
"""


def _functions(source: bytes, known=None):  # noqa: ANN001, ANN202
    tree = Parser(language()).parse(source)
    return top_level_functions(tree, source, known)


def test_edit_before_a_function_moves_its_record() -> None:
    before = _functions(SOURCE)
    edited = SOURCE.replace(b"return x", b"return  x")
    after = _functions(edited, {f.key: f for f in before})
    assert [f.name for f in after] == [b"helper", b"k"]
    assert after[0].key != before[0].key
    kernel, old = after[1], before[1]
    assert kernel.key == old.key
    assert (kernel.start, kernel.end, kernel.body_start, kernel.body_end) == \
        (old.start + 1, old.end + 1, old.body_start + 1, old.body_end + 1)
    assert edited[kernel.start:kernel.end] == SOURCE[old.start:old.end]
    assert edited[kernel.body_start - 1] == ord("{") and edited[kernel.body_end] == ord("}")
    assert kernel.words == old.words and b"helper" in kernel.words
    assert kernel.directives == b"#define LATE 1"
    # Same text, read afresh: the reused record equals a fresh one
    assert after == _functions(edited)


def test_unmoved_function_keeps_its_record() -> None:
    before = _functions(SOURCE)
    edited = SOURCE.replace(b"out[0] =", b"out[0]  =")
    after = _functions(edited, {f.key: f for f in before})
    assert after[0] is before[0]
    assert after[1].key != before[1].key
    assert after == _functions(edited)
