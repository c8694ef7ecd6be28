"""The incremental linter's function table read through the file's matched items
(toplevel.items_of): an item carried over from the previous tree keeps its record, moved by
the edit's delta; the table always equals a fresh read of the same tree (issue 32)."""

from __future__ import annotations

from tree_sitter import Parser

from cllint.analysis.incremental import top_level_functions
from cllint.analysis.toplevel import items_of
from cllint.grammar import language

THREE = b"""float first(float x) { return x + 1.0f; }

float second(float x) {
    return first(x) * 2.0f;
}

kernel void third(global float *out) {
    out[0] = second(1.0f);
}
"""


def _read(source: bytes, file: str):  # noqa: ANN202
    tree = Parser(language()).parse(source)
    return top_level_functions(tree, source, items=items_of(tree, source, file)), \
        top_level_functions(tree, source)


def test_edit_in_a_middle_body_keeps_the_others_records() -> None:
    before, _ = _read(THREE, "items-functions-1.cl")
    edited = THREE.replace(b"* 2.0f", b"* 20.0f")
    after, fresh = _read(edited, "items-functions-1.cl")
    assert after == fresh
    assert after[0] is before[0]  # before the edit: the same record
    assert after[1].key != before[1].key
    assert after[2].key == before[2].key and after[2].start == before[2].start + 1


def test_a_body_that_loses_its_brace_reads_as_a_fresh_parse() -> None:
    _read(THREE, "items-functions-2.cl")
    edited = THREE.replace(b"* 2.0f;\n}", b"* 2.0f;\n")
    after, fresh = _read(edited, "items-functions-2.cl")
    assert after == fresh
    assert b"third" not in [f.name for f in after] or len(after) == len(fresh)


def test_functions_inside_a_conditional_block_are_carried_too() -> None:
    source = b"#ifdef cl_khr_fp64\n" + THREE + b"#endif\n"
    before, _ = _read(source, "items-functions-3.cl")
    edited = source.replace(b"x + 1.0f", b"x + 1.25f")  # one byte longer
    after, fresh = _read(edited, "items-functions-3.cl")
    assert after == fresh
    assert [f.name for f in after] == [b"first", b"second", b"third"]
    assert after[2].key == before[2].key and after[2] is not before[2]


def test_a_new_function_between_two_is_read_and_the_rest_moved() -> None:
    _read(THREE, "items-functions-4.cl")
    edited = THREE.replace(b"\nfloat second", b"\nint added(void) { return 3; }\n\nfloat second")
    after, fresh = _read(edited, "items-functions-4.cl")
    assert after == fresh
    assert [f.name for f in after] == [b"first", b"added", b"second", b"third"]
