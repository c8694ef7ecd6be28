"""A function-like macro's call as a definition's return type or a parameter's type
(`inline const VEC_DATA_TYPE(uchar, 4) read_texels4(const Image *in, ...)`, a vector type pasted
from its parts; issue 29: OpenVX's sample kernels, six CL001 "unexpected ','"). Each fixture
must parse with no ERROR or MISSING node, `cllint check` must report no error, and clang-19 must
accept it. `tune/` holds the cases the grammar was changed for, `heldout/` those written beside
them and first run once the change was done; `regress/` what an earlier, wider form of the change
broke on ROCm's device library (lines of bare macro calls at file scope; an attribute macro with
a string argument before a macro-named head).

Not read: a macro's call alone before the name at the start of a line (`VEC(int, 4) f(int x)
{`). Read so, every line of bare file-scope macro calls (`ALL(CXA)` then `ALLI(FOA)`) would read
as a type and a declarator too, and tree-sitter keeps only a few readings at once: the right one
was lost (`regress/lines_of_macro_calls.cl`). A keyword must come first (`inline`, `static`...)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "macro_typed_definitions"
FILES = sorted(FIXTURES.glob("*/*.cl"))
CASES = [p for p in FILES if p.parent.name != "regress"]
_LINE_START = "line_start_return_type"


def _kinds(source: bytes) -> list[str]:
    out, stack = [], [parse(source).root_node]
    while stack:
        n = stack.pop()
        out.append(n.type)
        stack.extend(n.children)
    return out


def _known_gap(path: Path):  # noqa: ANN202
    marks = [pytest.mark.xfail(strict=True, reason="a macro type alone at a line's start is not read")]
    return pytest.param(path, marks=marks, id=fixture_id(path)) if path.stem == _LINE_START else path


@pytest.mark.parametrize("path", CASES, ids=fixture_id)
def test_parses(path: Path) -> None:
    assert not parse(path.read_bytes()).root_node.has_error


@pytest.mark.parametrize("path", [_known_gap(p) for p in FILES])
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
