"""CL21x said once per (rule, memory object, kernel) (issue 29 item 6): the first race on an
array by position is the report, the others on it in that kernel its notes ("also races
here: ..."). Cases in tests/rules/fixtures/races/per_object/: `// expect: CODE line N` is a
report, `// note: CODE line N` a race merged into a report of that code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "per_object"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
NOTE = re.compile(r"^// note: (CL\d+) line (\d+)\s*$", re.M)
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
ALSO = "also races here: "


def lint(src: bytes):
    return lint_tree("r.cl", src, parse(src), LintOptions(select=("CL21",)))


def _line(src: bytes, at: int) -> int:
    return src.count(b"\n", 0, at) + 1


def reported(path: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    """Reports and merged races (notes), as (code, line), each in order."""
    src = path.read_bytes()
    diags = lint(src)
    merged = [(d.code, _line(src, n.span.start)) for d in diags for n in d.notes if n.message.startswith(ALSO)]
    return sorted((d.code, _line(src, d.span.start)) for d in diags), sorted(merged)


def expected(path: Path) -> tuple[list[tuple[str, int]], list[tuple[str, int]]]:
    text = path.read_text()
    return (sorted((c, int(n)) for c, n in EXPECT.findall(text)), sorted((c, int(n)) for c, n in NOTE.findall(text)))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    assert reported(path) == expected(path)


@pytest.mark.parametrize("path", HELDOUT, ids=lambda p: p.stem)
def test_heldout_case(path: Path) -> None:
    assert reported(path) == expected(path)


def test_merged_race_keeps_its_message_and_the_first_keeps_its_fix() -> None:
    src = (FIXTURES / "tune" / "pos_two_races_one_array.cl").read_bytes()
    (d,) = lint(src)
    assert src[d.span.start:d.span.end] == b"l[lid + 1]"
    assert d.message == "work-item 1 writes 'l[1]' while work-item 0 reads it as 'l[lid + 1]'; no barrier between"
    assert d.fix is not None and "barrier(CLK_LOCAL_MEM_FENCE)" in d.fix.edits[0].replacement
    also = [n for n in d.notes if n.message.startswith(ALSO)]
    assert len(also) == 1 and src[also[0].span.start:also[0].span.end] == b"l[lid]"
    assert also[0].message == ALSO + "work-item 0 writes 'l[1]' while work-item 1 reads it as 'l[lid]'; no barrier between"
    # the merged race's own note (where its first access is) follows it
    after = d.notes[d.notes.index(also[0]) + 1]
    assert src[after.span.start:after.span.end] == b"l[lid + 1]" and after.message.endswith("here")


def test_notes_are_capped_with_a_count() -> None:
    steps = "".join(f"  l[lid] = {i}.0f * lid;\n  out[gid] += l[lid + 1];\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
                    for i in range(1, 13))
    src = ("kernel void k(global float *out, local float *l) {\n  int lid = get_local_id(0), gid = get_global_id(0);\n"
           + steps + "}\n").encode()
    (d,) = lint(src)
    assert len(d.notes) <= 9
    assert d.notes[-1].message == "and 8 more races on 'l' here and after"
    assert sum(n.message.startswith(ALSO) for n in d.notes) == 3


def _lint_all(src: bytes):
    return lint_tree("r.cl", src, parse(src), LintOptions(select=("CL21", "CL090")))


@pytest.mark.parametrize("which", [0, 1])
def test_a_suppressed_race_hides_itself_only(which: int) -> None:
    src = (FIXTURES / "tune" / "pos_two_races_one_array.cl").read_bytes()
    lines = src.split(b"\n")
    at = (6, 9)[which]  # (0-based) the first race's line, or the merged one's
    lines[at] += b"  // cllint: ignore[CL210]"
    src = b"\n".join(lines)
    (d,) = _lint_all(src)  # the other race, alone; the suppression used (no CL090)
    assert d.code == "CL210" and _line(src, d.span.start) == (10, 7)[which]
    assert not any(n.message.startswith(ALSO) for n in d.notes)
