"""The OpenCL C tree-sitter grammar, compiled into this package.

`language()` returns the `tree_sitter.Language`; `parse(source)` returns a tree.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from tree_sitter import Language, Parser, Tree

from cllint.grammar import _binding

QUERIES = Path(__file__).with_name("queries")


@cache
def language() -> Language:
    return Language(_binding.language())


def parser() -> Parser:
    """A fresh parser: parsers are not thread-safe, so callers keep their own."""
    return Parser(language())


def parse(source: bytes | str, old_tree: Tree | None = None) -> Tree:
    if isinstance(source, str):
        source = source.encode("utf-8", "surrogatepass")
    p = parser()
    return p.parse(source, old_tree) if old_tree is not None else p.parse(source)


def query_source(name: str) -> str:
    """Text of one of the editor queries (`highlights`, `locals`, `tags`, ...)."""
    return (QUERIES / f"{name}.scm").read_text(encoding="utf-8")
