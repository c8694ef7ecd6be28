"""Runs grammar/test/corpus/*.txt (tree-sitter's corpus format) against the compiled
parser, so CI needs no tree-sitter CLI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cllint.grammar import parse

CORPUS = Path(__file__).parents[2] / "grammar" / "test" / "corpus"
HEADER = re.compile(r"^={3,}\n(?P<title>.*?)\n={3,}\n", re.M | re.S)
DIVIDER = re.compile(r"^-{3,}\n", re.M)


def load_cases() -> list[tuple[str, str, str]]:
    cases = []
    for path in sorted(CORPUS.glob("*.txt")):
        text = path.read_text(encoding="utf-8")
        headers = list(HEADER.finditer(text))
        for i, h in enumerate(headers):
            body = text[h.end() : headers[i + 1].start() if i + 1 < len(headers) else len(text)]
            source, expected = DIVIDER.split(body, maxsplit=1)
            cases.append((f"{path.stem}: {h.group('title')}", source.strip("\n") + "\n", expected))
    return cases


def normalize(sexp: str) -> str:
    return re.sub(r"\s+", " ", sexp.replace("(", " (").replace(")", ") ")).replace(" )", ")").strip()


CASES = load_cases()


def test_corpus_is_not_empty() -> None:
    assert len(CASES) >= 30


@pytest.mark.parametrize(("title", "source", "expected"), CASES, ids=[c[0] for c in CASES])
def test_corpus_case(title: str, source: str, expected: str) -> None:
    tree = parse(source.encode())
    assert not tree.root_node.has_error, f"{title}: parse error\n{tree.root_node}"
    assert normalize(str(tree.root_node)) == normalize(expected)
