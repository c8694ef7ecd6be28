"""Simple name resolution over one file's tree: walk outward through enclosing scopes.

Pure: byte offsets in, tree nodes out; no LSP. Completion, signature help and the outline
still use it (macros and broken code, which the semantic model does not index); hover and
navigation read the semantic model (analysis/ide/model_cache.py) first.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from tree_sitter import Node, Tree

from cllint.analysis.model.walk import is_kernel
from cllint.analysis.syntax import walk

NAME_KINDS = {"identifier", "field_identifier", "type_identifier"}
_DECLARATOR_WRAPPERS = {"init_declarator", "pointer_declarator", "array_declarator",
                        "function_declarator", "parenthesized_declarator", "attributed_declarator"}
_SCOPES = {"compound_statement", "for_statement", "function_definition", "translation_unit"}


@dataclass(frozen=True)
class Declaration:
    name: str
    kind: str  # "local" | "parameter" | "global" | "function" | "kernel" | "struct" | "macro" | "typedef"
    name_node: Node
    node: Node  # the whole declaration


def text(src: bytes, node: Node) -> str:
    return src[node.start_byte:node.end_byte].decode("utf-8", "replace")


def name_at(tree: Tree, offset: int) -> Node | None:
    """The identifier under or just before the cursor."""
    for at in (offset, offset - 1):
        if at < 0:
            continue
        node = tree.root_node.descendant_for_byte_range(at, at)
        if node is not None and node.type in NAME_KINDS and node.start_byte <= offset <= node.end_byte:
            return node
    return None


def declarator_name(node: Node | None) -> Node | None:
    """The identifier a declarator declares (through pointers, arrays, initialisers)."""
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        node = node.child_by_field_name("declarator")
    return node if node is not None and node.type in NAME_KINDS else None


def _declares_function(node: Node | None) -> bool:
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        if node.type == "function_declarator":
            return True
        node = node.child_by_field_name("declarator")
    return False


def _declared(decl: Node) -> Iterator[Node]:
    for child in decl.children_by_field_name("declarator"):
        name = declarator_name(child)
        if name is not None:
            yield name


def top_level(tree: Tree, src: bytes) -> Iterator[Declaration]:
    for item in tree.root_node.children:
        yield from _item_declarations(item, src, top=True)


def _item_declarations(item: Node, src: bytes, top: bool) -> Iterator[Declaration]:
    t = item.type
    if t == "function_definition":
        name = declarator_name(item.child_by_field_name("declarator"))
        if name is not None:
            yield Declaration(text(src, name), "kernel" if is_kernel(item) else "function", name, item)
    elif t in ("declaration", "type_definition"):
        for declarator in item.children_by_field_name("declarator"):
            name = declarator_name(declarator)
            if name is None:
                continue
            kind = "typedef" if t == "type_definition" else ("global" if top else "local")
            if top and _declares_function(declarator):
                kind = "function"
            yield Declaration(text(src, name), kind, name, item)
    elif t in ("preproc_def", "preproc_function_def"):
        name = item.child_by_field_name("name")
        if name is not None:
            yield Declaration(text(src, name), "macro", name, item)
    if t in ("struct_specifier", "union_specifier", "enum_specifier") or t in ("declaration", "type_definition"):
        for node in ([item] if t.endswith("_specifier") else item.children):
            if node.type in ("struct_specifier", "union_specifier", "enum_specifier"):
                name = node.child_by_field_name("name")
                if name is not None and node.child_by_field_name("body") is not None:
                    yield Declaration(text(src, name), "struct", name, node)
    if t in ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "expression_statement") and top:
        for child in item.children:
            yield from _item_declarations(child, src, top)


def _scope_declarations(scope: Node, src: bytes, before: int) -> Iterator[Declaration]:
    if scope.type == "function_definition":
        fn = scope.child_by_field_name("declarator")
        while fn is not None and fn.type != "function_declarator":
            fn = fn.child_by_field_name("declarator")
        params = fn.child_by_field_name("parameters") if fn is not None else None
        for p in params.named_children if params is not None else ():
            name = declarator_name(p.child_by_field_name("declarator"))
            if name is not None:
                yield Declaration(text(src, name), "parameter", name, p)
        return
    for child in scope.children:
        if child.start_byte >= before:
            break
        if child.type == "declaration":
            for name in _declared(child):
                yield Declaration(text(src, name), "local", name, child)


def scopes_at(tree: Tree, offset: int) -> list[Node]:
    """Enclosing scope nodes, innermost first (the translation unit last)."""
    node = tree.root_node.descendant_for_byte_range(offset, offset)
    out = []
    while node is not None:
        if node.type in _SCOPES:
            out.append(node)
        node = node.parent
    return out or [tree.root_node]


def visible(tree: Tree, src: bytes, offset: int) -> list[Declaration]:
    """Everything visible at `offset`, innermost first."""
    out: list[Declaration] = []
    for scope in scopes_at(tree, offset):
        if scope.type == "translation_unit":
            out.extend(top_level(tree, src))
        else:
            out.extend(reversed(list(_scope_declarations(scope, src, offset))))
    return out


def resolve(tree: Tree, src: bytes, name_node: Node) -> Declaration | None:
    name = text(src, name_node)
    for d in visible(tree, src, name_node.start_byte):
        if d.name == name:
            return d
    return None


def references(tree: Tree, src: bytes, decl: Declaration) -> list[Node]:
    """Identifiers in the file that resolve to `decl` (the declaration's own name included)."""
    want = decl.name.encode()
    out = []
    for node in walk(tree.root_node):
        if node.type in NAME_KINDS and src[node.start_byte:node.end_byte] == want:
            if node == decl.name_node:
                out.append(node)
                continue
            if node.type == "field_identifier" and node.parent is not None and node.parent.type == "field_expression":
                continue
            found = resolve(tree, src, node)
            if found is not None and found.name_node == decl.name_node:
                out.append(node)
    return out


def line_of(src: bytes, start: int, limit: int = 200) -> str:
    """The source line holding `start`, trimmed."""
    begin = src.rfind(b"\n", 0, start) + 1
    end = src.find(b"\n", start)
    end = len(src) if end < 0 else end
    return src[begin:end].decode("utf-8", "replace").strip()[:limit]
