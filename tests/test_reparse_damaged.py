"""A broken revision reparsed at its damaged items reads as a fresh parse (issue 33)."""

from __future__ import annotations

from pathlib import Path

from tree_sitter import Parser, Tree

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.reparse import damaged_span, point_at, reparse_fresh
from cllint.grammar import language

REDUCE = (Path(__file__).resolve().parents[1] / "examples" / "reduce.cl").read_bytes()
THREE = b"""float f(float x) { return x * 2.0f; }

kernel void k(global float *a) {
    int i = get_global_id(0);
    a[i] = f(a[i]);
}

kernel void g(global float *b) { b[0] = 1.0f; }
"""


def _type(parser: Parser, text: bytes, pos: int, typed: bytes):
    """Yields (incremental tree, text) after each character of `typed` inserted at `pos`."""
    tree = parser.parse(text)
    for ch in typed:
        after = text[:pos] + bytes([ch]) + text[pos:]
        tree.edit(start_byte=pos, old_end_byte=pos, new_end_byte=pos + 1, start_point=point_at(text, pos),
                  old_end_point=point_at(text, pos), new_end_point=point_at(after, pos + 1))
        tree, text, pos = parser.parse(after, tree), after, pos + 1
        yield tree, text


def test_reparse_reads_as_a_fresh_parse_where_the_incremental_tree_does_not() -> None:
    """Typing `int` at the start of the second comment line: tree-sitter's incremental tree of
    `int// ...\\nkernel void ...` recovers otherwise than a fresh parse of that text."""
    parser = Parser(language())
    pos = REDUCE.index(b"// return")
    trees = list(_type(parser, REDUCE, pos, b"int"))
    tree, text = trees[-1]
    fresh = str(parser.parse(text).root_node)
    assert tree.root_node.has_error and str(tree.root_node) != fresh  # the case exists
    assert str(reparse_fresh(parser, tree, text).root_node) == fresh
    assert str(tree.root_node) != fresh  # the incremental tree is left as it was


def test_every_typed_revision_reads_as_a_fresh_parse() -> None:
    parser = Parser(language())
    for where in (THREE.index(b"    a[i]"), THREE.index(b"kernel void g"), len(THREE)):
        tree: Tree | None = None
        text = THREE
        for tree, text in _type(parser, THREE, where, b"for (int j = 0; j < n; j++) { s += a[j]; }"):
            if tree.root_node.has_error:
                assert str(reparse_fresh(parser, tree, text).root_node) == str(parser.parse(text).root_node)


def test_damaged_span_is_the_damaged_item() -> None:
    parser = Parser(language())
    pos = THREE.index(b"    a[i]")
    tree, text = list(_type(parser, THREE, pos, b"f(a, "))[-1]
    start, end = damaged_span(tree)
    assert text[start:].startswith(b"kernel void k(") and text[:end].endswith(b"}")
    assert b"kernel void g" not in text[start:end] and b"float f(" not in text[start:end]
    assert damaged_span(parser.parse(THREE)) is None


def test_damaged_span_descends_into_a_guard_wrapping_the_file() -> None:
    guarded = b"#ifndef K_H\n#define K_H\n" + THREE + b"#endif\n"
    parser = Parser(language())
    pos = guarded.index(b"    a[i]")
    tree, text = list(_type(parser, guarded, pos, b"f(a, "))[-1]
    start, end = damaged_span(tree)
    assert text[start:].startswith(b"kernel void k(")


def test_damage_over_half_the_file_is_parsed_afresh() -> None:
    parser = Parser(language())
    text = b"kernel void k(global int *p) { p[0] = ; " + b"p[1] = 2; " * 40 + b"}\n"
    tree = parser.parse(text)
    assert damaged_span(tree) == (0, len(text) - 1)
    assert str(reparse_fresh(parser, tree, text).root_node) == str(parser.parse(text).root_node)


def test_the_host_publishes_the_fresh_reading() -> None:
    host = Host()
    host.set_file("f", REDUCE)
    pos = REDUCE.index(b"// return")
    for i, ch in enumerate(b"int"):
        host.apply_change(Change(edits={"f": [TextEdit(pos + i, pos + i, bytes([ch]))]}))
    text = REDUCE[:pos] + b"int" + REDUCE[pos:]
    scratch = Host()
    scratch.set_file("f", text)
    assert str(host.snapshot().tree("f").root_node) == str(scratch.snapshot().tree("f").root_node)
    assert host.snapshot().diagnostics("f") == scratch.snapshot().diagnostics("f")
