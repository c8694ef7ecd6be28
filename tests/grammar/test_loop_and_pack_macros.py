"""Valid OpenCL C written through macros that the grammar misread (issue 29, session 13: clDNN,
LuxCore): a macro standing for a loop keyword (`#define unroll_for __attribute__((
opencl_unroll_hint)) for`, `#define LOOP for`), a macro for an unroll pragma or attribute on the
loop's own line (`UNROLL for (...)`), and several argument-list macros side by side after the
last argument or parameter (`f(cfg SAMPLER_PARAM FILM_PARAM)`).

Each fixture is a complete file. It must parse with no ERROR or MISSING node, a loop written
through a macro must read as a `for_statement`, `cllint check` must report nothing on it, and
clang-19 must accept it. `tune/` holds the cases the grammar was changed for; `heldout/` the
cases written beside them, first checked once the change was done."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.analysis.syntax import walk
from cllint.grammar import parse

FIXTURES = Path(__file__).with_name("fixtures") / "loop_and_pack_macros"
FILES = sorted(FIXTURES.glob("*/*.cl"))
CLANG = shutil.which("clang-19")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def _problems(node, out: list[str]) -> list[str]:  # noqa: ANN001
    if node.is_error or node.is_missing:
        out.append(f"{node.start_point[0] + 1}:{node.start_point[1] + 1} {node.type} {node.text[:40]!r}")
    elif node.has_error:
        for child in node.children:
            _problems(child, out)
    return out


def test_fixture_split() -> None:
    held = [p for p in FILES if p.parent.name == "heldout"]
    assert len(held) * 3 >= len(FILES) and len(FILES) > len(held)


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_parses_without_errors(path: Path) -> None:
    tree = parse(path.read_bytes())
    assert not tree.root_node.has_error, _problems(tree.root_node, [])


@pytest.mark.parametrize("path", [p for p in FILES if "loop_macro" in p.stem], ids=_id)
def test_macro_loops_are_loops(path: Path) -> None:
    """Every loop keyword or loop macro written in the kernel heads a loop statement."""
    text = path.read_bytes()
    tree = parse(text)
    loops = [n for n in walk(tree.root_node) if n.type in ("for_statement", "while_statement", "do_statement")]
    body = text[text.index(b"kernel void"):]
    written = len(re.findall(rb"\b(?:for|unroll_for|unroll_loop|unroll_by|LOOP)\s*\(|(?<!\}) while\s*\(|\bdo\b", body))
    assert len(loops) == written


def test_a_for_macro_keeps_its_clauses() -> None:
    tree = parse(b"#define LOOP for\nvoid f(int n) { LOOP (int i = 0; i < n; i++) n--; }\n")
    loop = next(n for n in walk(tree.root_node) if n.type == "for_statement")
    assert loop.child_by_field_name("macro").text == b"LOOP"
    assert loop.child_by_field_name("initializer").type == "declaration"
    assert loop.child_by_field_name("condition").text == b"i < n"
    assert loop.child_by_field_name("update").text == b"i++"
    assert loop.child_by_field_name("body").text == b"n--;"


@pytest.mark.parametrize("split", ["tune", "heldout"])
def test_lint_reports_nothing(split: str) -> None:
    r = subprocess.run(
        [sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
         *(str(p) for p in FILES if p.parent.name == split)],
        capture_output=True, text=True, timeout=120,
    )
    found = [f"{Path(d['path']).name}:{d['line']} {d['code']} {d['message']}" for d in json.loads(r.stdout)]
    assert found == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_clang_accepts(path: Path) -> None:
    r = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL3.0", "-fsyntax-only", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
