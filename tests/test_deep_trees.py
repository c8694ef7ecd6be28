"""Trees deeper than tree-sitter's query cursor handles (issue 19, item 4).

A query cursor keeps depths in 16 bits: under a node more than 65,535 levels down it both
slows down sharply (minutes for 100,000 terms) and misses captures, which the rules then
read as absent (a parameter's use seen as undeclared). `analysis.captures` runs queries
on the subtrees small enough to be shallow and on the few deep nodes one level at a time.

Inputs are generated and sized to run in seconds; nothing here is timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tree_sitter import QueryCursor

from cllint.analysis.captures import DEEP, captures
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.model.walk import _query, nodes_of_kinds
from cllint.grammar import parse

REPO = Path(__file__).resolve().parent.parent
KINDS = frozenset({"identifier", "binary_expression", "call_expression", "number_literal"})


def one_expression(terms: int, term: str = "x", op: str = "+") -> bytes:
    body = f" {op} ".join([term] * terms)
    return f"__kernel void k(__global float *a, float x) {{\n    a[get_global_id(0)] = {body};\n}}\n".encode()


def _sorted(found: dict[str, list]) -> dict[str, list[tuple[int, int, str]]]:
    return {k: sorted((n.start_byte, n.end_byte, n.type) for n in v) for k, v in found.items()}


@pytest.mark.parametrize("path", sorted((REPO / "examples").glob("*.cl"))[:6], ids=lambda p: p.name)
def test_same_captures_as_a_query_cursor_on_real_files(path: Path) -> None:
    root = parse(path.read_bytes()).root_node
    q = _query(KINDS).compiled()
    assert _sorted(captures(q, root)) == _sorted(QueryCursor(q).captures(root))


def test_same_captures_with_a_byte_range() -> None:
    src = (REPO / "examples" / "reduce.cl").read_bytes()
    root = parse(src).root_node
    q = _query(KINDS).compiled()
    cursor = QueryCursor(q)
    cursor.set_byte_range(40, 200)
    assert _sorted(captures(q, root, (40, 200))) == _sorted(cursor.captures(root))


def test_every_term_of_a_deep_expression_is_found() -> None:
    terms = 70_000  # the leftmost ~4,500 terms lie deeper than 65,535
    root = parse(one_expression(terms)).root_node
    assert root.descendant_count > DEEP
    found = nodes_of_kinds(root, frozenset({"identifier"}))
    assert sum(1 for n in found if n.text == b"x") == terms + 1  # the terms and the parameter
    assert [n.start_byte for n in found] == sorted(n.start_byte for n in found)  # still pre-order


def test_structural_patterns_rooted_at_deep_nodes() -> None:
    """A pattern whose root is a deep node and whose capture is its child."""
    from tree_sitter import Query

    from cllint.grammar import language

    q = Query(language(), "(binary_expression left: (identifier) @n)")
    root = parse(one_expression(70_000)).root_node
    assert len(captures(q, root).get("n", [])) == 1  # only the innermost has an identifier on the left


def test_no_false_alarm_on_a_deep_expression() -> None:
    src = one_expression(70_000)
    diags = lint_tree("deep.cl", src, parse(src), LintOptions())
    assert [d.code for d in diags if d.code.startswith("CL0")] == []


@pytest.mark.parametrize("shape", ["unary", "parens", "call"])
def test_heldout_other_deep_shapes_finish_without_false_errors(shape: str) -> None:
    """Held out: shapes the code was not written against. With the editor's budget: nested
    calls are quadratic in the semantic family's macro check (minutes without it)."""
    n = 70_000
    expr = {"unary": "-" * n + "x", "parens": "(" * n + "x" + ")" * n,
            "call": "fabs(" * (n // 2) + "x" + ")" * (n // 2)}[shape]
    src = f"__kernel void k(__global float *a, float x) {{ a[0] = {expr}; }}\n".encode()
    diags = lint_tree("deep.cl", src, parse(src), LintOptions(budget=2.0))
    assert [d for d in diags if d.severity.name == "ERROR" and d.code != "CL001"] == []
