"""`SemanticModel.definitions_in(ranges)`: the definitions whose start lies in a range, by
bisection over their starts, as `in_ranges` on each would pick them (a keystroke's run asked
every definition of the file whether it was in focus, in three analyses: issue 32, session
20). Written before the code; held-out third (crc32 % 3 == 0) in
test_definitions_in_heldout.py."""

from __future__ import annotations

import random

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.walk import in_ranges
from cllint.analysis.syntax import parse
from cllint.analysis.target import Target

SOURCE = b"""int a(int x) { return x; }
#if 1
int b(int x) { return x + 1; }
#endif
float c(float y) { return y; }
kernel void k(global int *o) { o[0] = a(1) + b(2); }
"""


def model(source: bytes = SOURCE) -> SemanticModel:
    tree = parse(source)
    tree = tree[0] if isinstance(tree, tuple) else tree
    return SemanticModel(tree, source, Target.preset("CL1.2"))


def names(m: SemanticModel, ranges: list[tuple[int, int]] | None) -> list[str]:
    got = m.definitions_in(ranges)
    want = [d for d in m.index.definitions if in_ranges(ranges, d.start_byte)]
    assert got == want, ranges
    return [m.source[d.start_byte:d.end_byte].split(b"(")[0].split()[-1].decode() for d in got]


def test_one_function_focus() -> None:
    m = model()
    start = SOURCE.index(b"float c")
    assert names(m, [(start, SOURCE.index(b"kernel"))]) == ["c"]


def test_focus_between_functions() -> None:
    m = model()
    at = SOURCE.index(b"#if 1")
    assert names(m, [(at, at + 5)]) == []


def test_two_ranges_in_order() -> None:
    m = model()
    assert names(m, [(0, 5), (SOURCE.index(b"kernel"), len(SOURCE) + 1)]) == ["a", "k"]


def test_no_focus_all() -> None:
    assert names(model(), None) == ["a", "b", "c", "k"]


def test_range_starting_inside_a_head() -> None:
    m = model()
    assert names(m, [(SOURCE.index(b"int b") + 2, len(SOURCE))]) == ["c", "k"]


def test_definitions_in_an_if_block() -> None:
    m = model()
    assert names(m, [(SOURCE.index(b"#if"), SOURCE.index(b"#endif"))]) == ["b"]


def test_empty_range_holds_none() -> None:
    assert names(model(), [(0, 0)]) == []


def test_range_ending_at_a_start() -> None:
    assert names(model(), [(0, SOURCE.index(b"int b"))]) == ["a"]


def test_focus_before_any() -> None:
    source = b"// header\n" + SOURCE
    assert names(model(source), [(0, 9)]) == []


def test_random_ranges_as_in_ranges() -> None:
    m = model()
    rng = random.Random(20)
    for _ in range(500):
        cuts = sorted(rng.sample(range(len(SOURCE) + 2), rng.choice((2, 4, 6))))
        names(m, list(zip(cuts[::2], cuts[1::2])))
