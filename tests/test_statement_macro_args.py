"""Statements passed as a macro argument (`FOR5(x, 1, b[x] ^= a[x];)`) are read as their
expansion: compound assignments, `->`, `++` and `--` are one token each, as the compiler's
preprocessor reads them, so the expansion parses. Labels from clang-19: a file named
`broken_*` has a real syntax error inside the argument and keeps its CL001; the others compile
cleanly and get none. `heldout/` was scored once, after the code was done."""
from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.preprocessor.expr import tokenize
from cllint.cli.engine import LintOptions, lint_source

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "statement_macros"
CASES = sorted(FIXTURES.glob("*/*.cl"))


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_statement_argument_read_as_expansion(path: Path) -> None:
    found = [d for d in lint_source(str(path), path.read_bytes(), LintOptions()) if d.code == "CL001"]
    if path.stem.startswith("broken_"):
        assert found, "a real syntax error inside the macro argument must stay reported"
    else:
        assert found == [], [d.message for d in found]


def test_multi_character_operators_are_one_token() -> None:
    ops = ["+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "->", "++", "--"]
    for op in ops:
        assert [t.text for t in tokenize(f"a {op} b")] == ["a", op, "b"], op
    # maximal munch, as C reads them: `a---b` is `a -- - b`
    assert [t.text for t in tokenize("a---b")] == ["a", "--", "-", "b"]
    assert [t.text for t in tokenize("x<<=1")] == ["x", "<<=", "1"]
