"""Outline, folding ranges and semantic tokens of one file, as byte ranges.

Inactive preprocessor regions (arms the target never takes, from the preprocessor view's
`inactive_ranges()`) come in as byte ranges: they fold, and each of their lines is one
`comment` token with the `inactive` modifier (themes dim comments; no custom colour needed).
Tokens inside them are dropped."""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass

from tree_sitter import Tree

from cllint.analysis.catalogue import catalogue
from cllint.analysis.syntax import walk
from cllint.analysis.ide.names import top_level

TOKEN_TYPES = ("addressSpace", "kernel", "builtin", "macro", "function", "comment")
TOKEN_MODIFIERS = ("declaration", "defaultLibrary", "inactive")

_FOLDABLE = {"compound_statement", "field_declaration_list", "enumerator_list", "initializer_list",
             "preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "comment"}


@dataclass(frozen=True)
class Symbol:
    name: str
    kind: str  # "kernel" | "function" | "struct" | "macro" | "global" | "typedef"
    start: int
    end: int
    name_start: int
    name_end: int


@dataclass(frozen=True)
class Token:
    start: int
    end: int
    type: str
    modifiers: tuple[str, ...] = ()


def document_symbols(tree: Tree, src: bytes) -> list[Symbol]:
    return [Symbol(d.name, d.kind, d.node.start_byte, d.node.end_byte, d.name_node.start_byte,
                   d.name_node.end_byte) for d in top_level(tree, src)]


def folding_ranges(tree: Tree, inactive: Sequence[tuple[int, int]] = (), src: bytes = b"") -> list[tuple[int, int, str]]:
    """(start byte, end byte, kind) for nodes spanning more than one line, and inactive regions."""
    out = []
    for node in walk(tree.root_node):
        if node.type in _FOLDABLE and node.end_point[0] > node.start_point[0]:
            out.append((node.start_byte, node.end_byte, "comment" if node.type == "comment" else "region"))
    for start, end in inactive:
        begin = start + 1 if src[start:start + 1] == b"\n" else start
        stop = end - 1 if end > begin and src[end - 1:end] == b"\n" else end
        if src.count(b"\n", begin, stop) >= 1:
            out.append((begin, stop, "region"))
    out.sort(key=lambda r: r[0])
    return out


def inactive_tokens(src: bytes, inactive: Sequence[tuple[int, int]]) -> list[Token]:
    """One token per non-blank line of each inactive range."""
    out = []
    for start, end in inactive:
        at = start
        while at < end:
            nl = src.find(b"\n", at, end)
            stop = end if nl < 0 else nl
            line_end = stop - 1 if stop > at and src[stop - 1:stop] == b"\r" else stop
            if src[at:line_end].strip():
                out.append(Token(at, line_end, "comment", ("inactive",)))
            at = stop + 1
    return out


def _inside(offset: int, ranges: Sequence[tuple[int, int]]) -> bool:
    i = bisect_right(ranges, (offset, float("inf"))) - 1
    return i >= 0 and ranges[i][0] <= offset < ranges[i][1]


def semantic_tokens(tree: Tree, src: bytes, inactive: Sequence[tuple[int, int]] = ()) -> list[Token]:
    """Tokens in source order; `inactive` are the preprocessor view's inactive ranges."""
    ranges = sorted(inactive)
    out = [t for t in _syntax_tokens(tree, src) if not _inside(t.start, ranges)]
    out += inactive_tokens(src, ranges)
    out.sort(key=lambda t: t.start)
    return out


def _syntax_tokens(tree: Tree, src: bytes) -> list[Token]:
    cat = catalogue()
    macros, kernels = set(), set()
    for d in top_level(tree, src):
        if d.kind == "macro":
            macros.add(d.name)
        elif d.kind == "kernel":
            kernels.add(d.name)
    out: list[Token] = []
    for node in walk(tree.root_node):
        t = node.type
        if t == "address_space_qualifier":
            out.append(Token(node.start_byte, node.end_byte, "addressSpace"))
        elif t == "identifier":
            name = src[node.start_byte:node.end_byte].decode("utf-8", "replace")
            if name in kernels:
                out.append(Token(node.start_byte, node.end_byte, "kernel"))
            elif name in macros:
                out.append(Token(node.start_byte, node.end_byte, "macro"))
            elif cat.function(name) is not None and node.parent is not None and node.parent.type == "call_expression":
                out.append(Token(node.start_byte, node.end_byte, "builtin", ("defaultLibrary",)))
    return out
