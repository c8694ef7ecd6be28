"""Outline, folding ranges and semantic tokens of one file, as byte ranges."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Tree

from cllint.analysis.catalogue import catalogue
from cllint.analysis.syntax import walk
from cllint.analysis.ide.names import top_level

TOKEN_TYPES = ("addressSpace", "kernel", "builtin", "macro", "function")
TOKEN_MODIFIERS = ("declaration", "defaultLibrary")

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


def folding_ranges(tree: Tree) -> list[tuple[int, int, str]]:
    """(start byte, end byte, kind) for nodes spanning more than one line."""
    out = []
    for node in walk(tree.root_node):
        if node.type in _FOLDABLE and node.end_point[0] > node.start_point[0]:
            out.append((node.start_byte, node.end_byte, "comment" if node.type == "comment" else "region"))
    return out


def semantic_tokens(tree: Tree, src: bytes) -> list[Token]:
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
