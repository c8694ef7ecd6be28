"""`walk.items_in`: the file-level items (what a walk through `containers` stops at) that
start inside the focus, found from the focus's byte offsets instead of by walking all of them:
the address-space declaration pass walked and asked all 118 items of darktable's basic.cl per
keystroke (issue 32, session 22). Held-out cases: test_items_in_heldout.py."""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from cllint.analysis.model.walk import in_ranges, items_in
from cllint.grammar import parse

CONTAINERS = frozenset({"translation_unit", "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif",
                        "preproc_elifdef", "linkage_specification", "declaration_list"})


def _walk(root: Node) -> Iterator[Node]:  # the pass's own walk, as it was
    stack = [root]
    while stack:
        n = stack.pop()
        if n.type in CONTAINERS:
            stack.extend(reversed(n.children))
        else:
            yield n


def _expected(root: Node, focus: list[tuple[int, int]] | None) -> list[tuple[int, int, str]]:
    return [(n.start_byte, n.end_byte, n.type) for n in _walk(root) if in_ranges(focus, n.start_byte)]


def _got(root: Node, focus: list[tuple[int, int]] | None) -> list[tuple[int, int, str]]:
    return [(n.start_byte, n.end_byte, n.type) for n in items_in(root, CONTAINERS, focus)]


def _decls(got: list[tuple[int, int, str]]) -> int:
    """How many of `got` are declarations or definitions (a `#if`'s own tokens are items too)."""
    return sum(t in ("declaration", "function_definition", "type_definition") for _, _, t in got)


def _span(src: bytes, word: bytes) -> tuple[int, int]:
    """The item whose text starts with `word`: from its start to the next line's start."""
    s = src.index(word)
    return s, src.index(b"\n", s) + 1


FLAT = b"""typedef float real;
__constant float c = 1.0f;
float f(float x) { return x; }
kernel void k(global float *o) { o[0] = f(c); }
local float bad;
kernel void j(global float *o) { o[1] = 2.0f; }
"""


def test_items_in_matches_walk_flat() -> None:
    root = parse(FLAT).root_node
    for word in (b"typedef", b"__constant", b"float f", b"kernel void k", b"local", b"kernel void j"):
        focus = [_span(FLAT, word)]
        got = _got(root, focus)
        assert got == _expected(root, focus) and _decls(got) == 1, (word, got)
    assert _got(root, None) == _expected(root, None) and _decls(_got(root, None)) == 6


ARMS = b"""#ifdef USE_LOCAL
local float a;
kernel void k(global float *o) { o[0] = a; }
#elif defined(OTHER)
constant float b = 2.0f;
#else
float g(float x) { return x; }
#endif
kernel void j(global float *o) { o[1] = 2.0f; }
"""


def test_items_in_matches_walk_ifdef_arms() -> None:
    root = parse(ARMS).root_node
    for word in (b"local float", b"kernel void k", b"constant", b"float g", b"kernel void j"):
        focus = [_span(ARMS, word)]
        got = _got(root, focus)
        assert got == _expected(root, focus) and _decls(got) == 1, (word, got)
    whole_arm = [(ARMS.index(b"#ifdef"), ARMS.index(b"#elif"))]  # the focus a whole `#if` arm
    assert _got(root, whole_arm) == _expected(root, whole_arm) and _decls(_got(root, whole_arm)) == 2


def test_items_in_zero_offset_focus() -> None:
    root = parse(FLAT).root_node
    focus = [(0, FLAT.index(b"float f"))]  # the first two items, from offset 0
    assert _got(root, focus) == _expected(root, focus) and _decls(_got(root, focus)) == 2
    assert _got(root, [(0, len(FLAT))]) == _expected(root, None)


def test_items_in_two_ranges() -> None:
    root = parse(ARMS).root_node
    focus = [_span(ARMS, b"kernel void k"), _span(ARMS, b"kernel void j")]
    got = _got(root, focus)
    assert got == _expected(root, focus) and [t for _, _, t in got] == ["function_definition"] * 2
    assert _got(root, []) == [] == _expected(root, [])


NESTED = b"""#if A
#if B
float inner(float x) { return x; }
local int l;
#endif
float outer(float y) { return y; }
#endif
"""


def test_items_in_nested_if_in_focus() -> None:
    root = parse(NESTED).root_node
    for word in (b"float inner", b"local int", b"float outer"):
        focus = [_span(NESTED, word)]
        got = _got(root, focus)
        assert got == _expected(root, focus) and _decls(got) == 1, (word, got)
    focus = [(NESTED.index(b"#if B"), NESTED.index(b"float outer"))]  # the inner `#if` whole
    assert _got(root, focus) == _expected(root, focus) and _decls(_got(root, focus)) == 2
