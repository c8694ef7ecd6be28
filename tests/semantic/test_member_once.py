"""CL017 said once per (member, record type, function) (issue 29, item 6: no rule repeats per
use): the function's other uses of the same missing member are the first report's notes, so a
stale struct field used 22 times in a body is one error, not 22. Labelled cases, clang-19
-cl-std=CL3.0 as the oracle for which lines are wrong; heldout/ was scored once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source

HERE = Path(__file__).parent / "fixtures" / "member_once"
# file -> (lines reported, every line clang-19 says "no member named" on)
EXPECTED = {
    "tune/repeated_in_one_function.cl": ([3], [3, 4]),
    "tune/two_functions.cl": ([2, 4], [2, 4, 5]),
    "tune/two_members.cl": ([3, 4], [3, 4, 5]),
    "heldout/two_structs_same_member.cl": ([4, 5], [4, 5, 6]),
    "heldout/nested_access.cl": ([4], [4, 5]),
}


def _reports(name: str) -> tuple[list[int], list[int]]:
    path = HERE / name
    data = path.read_bytes()
    line = lambda at: data.count(b"\n", 0, at) + 1  # noqa: E731
    diags = [d for d in lint_source(str(path), data, LintOptions(select=("CL017",))) if d.code == "CL017"]
    shown = sorted({line(d.span.start) for d in diags} | {line(n.span.start) for d in diags for n in d.notes})
    return sorted(line(d.span.start) for d in diags), shown


@pytest.mark.parametrize("name", [n for n in EXPECTED if n.startswith("tune/")])
def test_tune(name: str) -> None:
    assert _reports(name) == EXPECTED[name]


@pytest.mark.parametrize("name", [n for n in EXPECTED if n.startswith("heldout/")])
def test_held_out(name: str) -> None:
    assert _reports(name) == EXPECTED[name]


def test_every_fixture_is_labelled() -> None:
    assert sorted(str(p.relative_to(HERE)) for p in HERE.rglob("*.cl")) == sorted(EXPECTED)


def test_notes_name_the_member() -> None:
    path = HERE / "tune" / "repeated_in_one_function.cl"
    [d] = [d for d in lint_source(str(path), path.read_bytes(), LintOptions(select=("CL017",)))]
    assert d.message == "no member named 'c' in 'Pair'"
    assert [n.message for n in d.notes] == ["'c' also used here", "'c' also used here"]
