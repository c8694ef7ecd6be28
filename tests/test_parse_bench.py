"""The parse benchmark's counting and grouping helpers (no corpus or network needed)."""

from __future__ import annotations

import sys
from pathlib import Path

import tree_sitter
import tree_sitter_c

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
import corpus
import parse_bench

C = tree_sitter.Parser(tree_sitter.Language(tree_sitter_c.language()))


def test_inspect_clean() -> None:
    res = parse_bench.inspect(C.parse(b"int f(void) { return 1; }\n"), keep=5)
    assert res.clean and res.errors == 0 and res.missing == 0 and res.problems == []


def test_inspect_counts_missing_and_error() -> None:
    res = parse_bench.inspect(C.parse(b"int f(void) { return 1 }\nint x = ;\n@@@\n"), keep=10)
    assert not res.clean
    assert res.missing >= 1
    assert res.errors >= 1
    assert [p.row for p in res.problems] == sorted(p.row for p in res.problems)
    assert any(p.kind.startswith("MISSING") for p in res.problems)


def test_inspect_keep_limits_problems_not_counts() -> None:
    src = b"".join(b"int x%d = ;\n" % i for i in range(30))
    res = parse_bench.inspect(C.parse(src), keep=3)
    assert len(res.problems) == 3
    assert res.errors + res.missing >= 30


def test_count_lines() -> None:
    assert parse_bench.count_lines(b"") == 0
    assert parse_bench.count_lines(b"a") == 1
    assert parse_bench.count_lines(b"a\n") == 1
    assert parse_bench.count_lines(b"a\nb") == 2


def test_normalize() -> None:
    assert parse_bench.normalize("  SIMPLE_TEST(int)") == "SIMPLE_TEST ("
    assert parse_bench.normalize("#  include M2S(x)") == "#include M2S"
    assert parse_bench.normalize("x = 0x1F;", 3) == "x = N"
    assert parse_bench.normalize('s = "a|b";', 3) == "s = STR"
    assert parse_bench.normalize("   ") == "<blank line>"


def test_expected_invalid() -> None:
    assert corpus.expected_invalid(b"/*!\n[config]\nexpect_build_fail: true\n!*/\nkernel void() {}")
    assert not corpus.expected_invalid(b"#expect_build_fail: true     # doc example\n")
    assert not corpus.expected_invalid(b"kernel void k() {}\n")
