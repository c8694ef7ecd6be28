"""Block literals with a tag type as their explicit return type (`^struct A(struct A a) {...}`,
issue 29: the SPIR-V translator's block_w_struct_return.cl), which clang-19 accepts in OpenCL C
2.0: the grammar read only a primitive type there, so the literal was a syntax error (CL001)
and its parameter undeclared (CL010). Fixtures (each clang-19 -cl-std=CL2.0 clean) in
tests/grammar/fixtures/block_return_types/{tune,heldout}: written before the change, the
held-out ones scored once it was done."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "fixtures" / "block_return_types"


def _check(path: Path) -> None:
    src = path.read_bytes()
    tree = parse(src)
    assert not tree.root_node.has_error
    literals = [n for n in _walk(tree.root_node) if n.type == "block_literal"]
    assert literals and all(n.child_by_field_name("type") is not None for n in literals)
    diags = lint_tree(path.name, src, tree, LintOptions(select=("CL0",), std="CL2.0"))
    assert [(d.code, d.message) for d in diags] == []


def _walk(node):  # noqa: ANN001, ANN202
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(n.children)


@pytest.mark.parametrize("path", sorted((FIXTURES / "tune").glob("*.cl")), ids=lambda p: p.stem)
def test_tune(path: Path) -> None:
    _check(path)


@pytest.mark.parametrize("path", sorted((FIXTURES / "heldout").glob("*.cl")), ids=lambda p: p.stem)
def test_heldout(path: Path) -> None:
    _check(path)
