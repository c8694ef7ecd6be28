"""Paths that were quadratic (or worse) in a file's shape, now read once (issue 19, item 4).

Each cached reading is checked against the plain one it replaced, on real files and on the
generated shapes that exposed it (`bench/scaling.py`): a call nested a thousand deep, an
unrolled kernel of thousands of statements, blocks nested thousands deep. Nothing is timed;
the bench reports the cost.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from tree_sitter import Node

from cllint.analysis.gating.uses import _climb, _Items
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.races.accesses import BlockExits, _early_exit, _enclosing, _may_jump_out
from cllint.analysis.syntax import walk
from cllint.analysis.target import Target
from cllint.grammar import parse

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples").glob("*.cl"))


def nested_calls(depth: int, inner: str = "x") -> bytes:
    return (f"__kernel void k(__global float *out, float x) {{\n    out[0] = "
            + "fabs(" * depth + inner + ")" * depth + ";\n}\n").encode()


def nested_blocks(depth: int) -> bytes:
    return ("__kernel void k(__global int *out, int x) {\n"
            + "if (x) { " * depth + "out[0] = x;" + " }" * depth + "\n}\n").encode()


def _files() -> list[tuple[str, bytes]]:
    return [(p.name, p.read_bytes()) for p in EXAMPLES] + [("nested_calls", nested_calls(300)),
                                                          ("nested_blocks", nested_blocks(300))]


@pytest.mark.parametrize(("name", "source"), _files(), ids=lambda v: v if isinstance(v, str) else "")
def test_items_read_going_down_equal_climbing(name: str, source: bytes) -> None:
    root = parse(source).root_node
    nodes = list(walk(root))
    random.Random(7).shuffle(nodes)  # any order: the kept path must not leak between nodes
    items = _Items(root)
    assert [items.of(n) for n in nodes] == [_climb(n) for n in nodes]


def _naive_before(block: Node, child: Node) -> tuple[list, bool]:
    guards, unknown = [], False
    for sib in block.named_children:
        if sib == child:
            break
        g = _early_exit(sib)
        if g is not None:
            guards.append(g)
        elif _may_jump_out(sib):
            unknown = True
    return guards, unknown


JUMPY = b"""
__kernel void k(__global int *a, __local int *t, int n) {
    int i = get_local_id(0);
    if (i > n) return;
    t[i] = 1;
    for (int j = 0; j < n; ++j) { if (j == 3) break; t[j] = 2; }
    if (i == 2) { t[0] = 3; return; }
    t[1] = 4;
    if (n) continue_label: t[2] = 5;
    if (i < 4) return;
    a[i] = t[i];
}
"""


@pytest.mark.parametrize(("name", "source"), [*_files(), ("jumpy", JUMPY)],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_block_exits_equal_rescanning(name: str, source: bytes) -> None:
    root = parse(source).root_node
    pairs = [(b, c) for b in walk(root) if b.type == "compound_statement" for c in b.named_children]
    random.Random(3).shuffle(pairs)
    exits = BlockExits()
    for block, child in pairs:
        got, want = exits.before(block, child), _naive_before(block, child)
        assert (got[0], got[1]) == want, (block.start_point, child.start_point)


def _lint(source: bytes) -> list[tuple[str, int, int, str]]:
    found = lint_tree("k.cl", source, parse(source), LintOptions(target=Target.preset("CL3.0")))
    return [(d.code, d.span.start, d.span.end, d.message) for d in found]


def test_a_deep_call_is_checked_at_every_level() -> None:
    """The wrong call 400 levels down is found; a macro in the innermost argument keeps every
    call around it from being judged (the file cannot tell what it expands to)."""
    wrong = nested_calls(400, "fabs(x, x)")
    assert [c for c, *_ in _lint(wrong)] == ["CL014"]  # no fabs of two arguments
    macro = b"#define ARG(v, w) v, w\n" + nested_calls(400, "ARG(x, x)")
    assert _lint(macro) == []


def test_names_deep_in_blocks_resolve_to_the_parameters() -> None:
    """Blocks that declare nothing share what names mean outside them; one that does
    declares its own."""
    deep = nested_blocks(500).replace(b"out[0] = x;", b"{ int x = 2; out[0] = x; } out[1] = y;")
    found = _lint(deep)
    assert [c for c, *_ in found] == ["CL010"], found  # `y` only; `x` and `out` resolve
    assert "'y'" in found[0][3]


def test_items_in_any_order_equal_climbing_on_a_deep_call() -> None:
    """Uses come in no order from a query over a deep tree's parts (files over 1 MB, the
    editor's runs); read in start order, each resumes on the last path."""
    root = parse(nested_calls(300)).root_node
    calls = [n for n in walk(root) if n.type == "call_expression"]
    random.Random(11).shuffle(calls)
    items = _Items(root)
    assert [items.of(n) for n in sorted(calls, key=lambda n: n.start_byte)] == \
        [_climb(n) for n in sorted(calls, key=lambda n: n.start_byte)]


def _climbed(n: Node, body: Node) -> list[tuple[Node, Node]]:
    pairs, child, p = [], n, n.parent
    while p is not None and p != body.parent:
        pairs.append((child, p))
        child, p = p, p.parent
    return pairs


@pytest.mark.parametrize(("name", "source"), [*_files(), ("jumpy", JUMPY)],
                         ids=lambda v: v if isinstance(v, str) else "")
def test_enclosing_read_going_down_equals_climbing(name: str, source: bytes) -> None:
    root = parse(source).root_node
    for func in (f for f in root.children if f.type == "function_definition"):
        body = func.child_by_field_name("body")
        for n in list(walk(body))[::7]:
            assert [(c.id, p.id) for c, p in _enclosing(n, body)] == [(c.id, p.id) for c, p in _climbed(n, body)]
