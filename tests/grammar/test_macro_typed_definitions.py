"""A function-like macro's call as a definition's return type or a parameter's type
(`inline const VEC_DATA_TYPE(uchar, 4) read_texels4(const Image *in, ...)`, a vector type pasted
from its parts; issue 29: OpenVX's sample kernels, six CL001 "unexpected ','"). Each fixture
must parse with no ERROR or MISSING node, `cllint check` must report no error, and clang-19 must
accept it. `tune/` holds the cases the grammar was changed for, `heldout/` those written beside
them and first run once the change was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "macro_typed_definitions"
FILES = sorted(FIXTURES.glob("*/*.cl"))


def _kinds(source: bytes) -> list[str]:
    out, stack = [], [parse(source).root_node]
    while stack:
        n = stack.pop()
        out.append(n.type)
        stack.extend(n.children)
    return out


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_parses(path: Path) -> None:
    assert not parse(path.read_bytes()).root_node.has_error


@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_no_error(path: Path) -> None:
    assert [(d["line"], d["code"]) for d in reports(path) if d["severity"] == "error"] == []


def test_the_head_is_a_definition_with_a_macro_type() -> None:
    root = parse(b"inline const V(uchar, 4) f(int x) { return 0; }\n").root_node
    (item,) = root.children
    assert item.type == "function_definition"
    assert item.child_by_field_name("type").type == "macro_type_specifier"
    assert item.child_by_field_name("declarator").type == "function_declarator"


def test_bare_macro_statements_stay_calls() -> None:
    # Among statements a call without `;` is a macro statement, never a type (hashcat writes
    # `R (c)` / `R (d)` lines under `#if VECT_SIZE >= 16`).
    source = b"#define R(n) x.s##n++;\nkernel void k() {\n  R (c)\n  R (d)\n  R (e)\n}\n"
    kinds = _kinds(source)
    assert "ERROR" not in kinds
    assert "macro_type_specifier" not in kinds


def test_a_call_before_a_name_at_file_scope_without_a_body_is_no_definition() -> None:
    kinds = _kinds(b"DECLARE(a, b) c;\n")
    assert "function_definition" not in kinds


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_compiles(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr
