"""clang built-ins whose second argument is a type: `__builtin_astype(q, __global T *)`,
`__builtin_convertvector(v, float4)` (issue 29: ROCm's and IGC's device libraries read a
`queue_t` as a pointer to their runtime's header this way; the type in argument position was a
syntax error, CL001). Each fixture must parse with no ERROR or MISSING node, `cllint check`
must report no error, and clang-19 must accept it. `tune/` holds the cases the grammar was
changed for, `heldout/` those written beside them and first run once the change was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "type_argument_builtins"
FILES = sorted(FIXTURES.glob("*/*.cl"))


def test_split() -> None:
    assert len([p for p in FILES if p.parent.name == "heldout"]) * 3 >= len(FILES) - 1


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_parses(path: Path) -> None:
    tree = parse(path.read_bytes())
    assert not tree.root_node.has_error


def test_the_callee_reads_as_a_call() -> None:
    tree = parse(b"kernel void k(queue_t q) { global int *p = __builtin_astype(q, global int *); }\n")
    calls = []
    stack = [tree.root_node]
    while stack:
        n = stack.pop()
        if n.type == "call_expression":
            calls.append(n.child_by_field_name("function").text)
        stack.extend(n.children)
    assert calls == [b"__builtin_astype"]


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    found = reports(path)
    assert [(d["line"], d["code"]) for d in found if d["severity"] == "error"] == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_accepts(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
