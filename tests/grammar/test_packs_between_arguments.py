"""An object-like macro between two arguments that expands to more of them (`OutsideImage(pos
DIMS, mask_size)` under `#define DIMS , src_step, dst_step, width, height`; issue 29: OpenCLIPP's
filters, 32 CL001 "expected 'signed'"). The compiler reads the expansion's arguments; the parser
reads a `macro_argument_pack` after the argument, as it already did before a `)`. Each fixture
must parse with no ERROR or MISSING node, `cllint check` must report no error (the call's
argument count is the expansion's business, so no CL013), and clang-19 must accept it.
`tune/` holds the cases written for the change, `heldout/` those written beside them (crc32 of
the name % 3 == 0) and run once the change was done; `regress/` shapes that must read as before:
attribute macros after a declarator, capitals that are arguments of their own."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, fixture_id, reports  # noqa: E402

from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "packs_between_arguments"
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


@pytest.mark.skipif(CLANG is None, reason="clang-19 not installed")
@pytest.mark.parametrize("path", FILES, ids=fixture_id)
def test_clang_accepts(path: Path) -> None:
    r = clang(path)
    assert r.returncode == 0, r.stderr


def test_the_pack_is_between_the_arguments() -> None:
    kinds = _kinds(b"#define D , b\nvoid g(void) { f(a D, c); }\n")
    assert "ERROR" not in kinds and kinds.count("macro_argument_pack") == 1


def test_attribute_macros_stay_modifiers() -> None:
    kinds = _kinds((FIXTURES / "regress" / "attribute_macros_stay.cl").read_bytes())
    assert "macro_argument_pack" not in kinds and "macro_parameter_pack" not in kinds
    assert kinds.count("macro_modifier") == 4


def test_a_wrong_count_is_still_reported_without_a_pack(tmp_path: Path) -> None:
    # a pack makes the count unsure; a call without one is still counted
    p = tmp_path / "count.cl"
    p.write_bytes(b"int f(int a, int b) { return a + b; }\nkernel void k(global int *o) { o[0] = f(1); }\n")
    assert [d["code"] for d in reports(p)] == ["CL013"]
