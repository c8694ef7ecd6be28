"""Go to definition/declaration, references, highlights, rename and workspace symbols.

Names resolve through the semantic model of the file; a name the file does not declare is
looked up in the files it #includes (analysis/ide/units.py), and a file-level symbol or
macro declared in a header is found in every open file that includes that header too.
Results are byte ranges per file id.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from cllint.analysis.diagnostics import FileId
from cllint.analysis.ide import names
from cllint.analysis.ide.symbols import document_symbols
from cllint.analysis.ide.units import Unit, closure
from cllint.analysis.model import Symbol, SymbolKind
from cllint.analysis.syntax import walk

_BLOCK_KINDS = frozenset({SymbolKind.PARAMETER, SymbolKind.LOCAL, SymbolKind.FIELD})
_TYPE_KINDS = frozenset({SymbolKind.TYPEDEF, SymbolKind.STRUCT, SymbolKind.UNION, SymbolKind.ENUM})
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
_RESERVED = frozenset({
    "auto", "break", "case", "char", "const", "continue", "default", "do", "double", "else", "enum", "extern",
    "float", "for", "goto", "if", "inline", "int", "long", "register", "restrict", "return", "short", "signed",
    "sizeof", "static", "struct", "switch", "typedef", "union", "unsigned", "void", "volatile", "while", "bool",
    "half", "uchar", "ushort", "uint", "ulong", "kernel", "__kernel", "global", "__global", "local", "__local",
    "constant", "__constant", "private", "__private", "generic", "__generic", "read_only", "write_only",
    "read_write", "__read_only", "__write_only", "__read_write"})


@dataclass(frozen=True)
class Location:
    file: FileId
    start: int
    end: int


@dataclass(frozen=True)
class Entity:
    """What a name refers to. `scope` "block": a parameter, local or field of the cursor's file
    (`symbol` set); "file": a file-level name; "macro": a `#define`."""

    name: str
    scope: str
    decl: Location  # the declaring name
    symbol: Symbol | None = None


@dataclass(frozen=True)
class WorkspaceSymbol:
    name: str
    kind: str  # "kernel" | "function" | "struct" | "macro" | "global" | "typedef"
    file: FileId
    start: int
    end: int
    name_start: int
    name_end: int


def _loc(u: Unit, node: Node) -> Location:
    return Location(u.file, node.start_byte, node.end_byte)


def _file_level(u: Unit, name: str, node_type: str) -> Symbol | None:
    idx = u.model.index
    if node_type == "type_identifier":
        return idx.typedef_symbols.get(name) or idx.tag_symbols.get(name)
    return idx.lookup(name) or idx.typedef_symbols.get(name) or idx.tag_symbols.get(name)


def _macro_entity(u: Unit, node: Node, name: str) -> Entity | None:
    parent = node.parent
    if parent is not None and parent.type in ("preproc_def", "preproc_function_def") and \
            parent.child_by_field_name("name") == node:
        return Entity(name, "macro", _loc(u, node))
    md = u.view.macro_at(name, node.start_byte)
    if md is None:
        return None
    return Entity(name, "macro", Location(md.span.file, md.span.start, md.span.end))


def entity_at(snap, file: FileId, offset: int) -> tuple[list[Unit], Node, Entity] | None:
    """The files in play (the cursor's first), the name node under the cursor and what it names."""
    units = closure(snap, file)
    if not units:
        return None
    main = units[0]
    node = names.name_at(main.tree, offset)
    if node is None:
        return None
    name = names.text(main.text, node)
    sym = main.model.resolve(node)
    if (sym is None or sym.kind == SymbolKind.BUILTIN) and (macro := _macro_entity(main, node, name)) is not None:
        return units, node, macro
    if sym is not None and sym.kind != SymbolKind.BUILTIN and sym.node is not None:
        block = sym.kind in _BLOCK_KINDS or sym.scope_start > 0
        return units, node, Entity(name, "block" if block else "file", _loc(main, sym.node), sym if block else None)
    for u in units[1:]:
        found = _file_level(u, name, node.type)
        if found is not None and found.node is not None:
            return units, node, Entity(name, "file", _loc(u, found.node))
    decl = names.resolve(main.tree, main.text, node)  # names the model does not index
    if decl is not None and decl.kind in ("macro", "struct", "typedef", "function", "kernel", "global"):
        scope = "macro" if decl.kind == "macro" else "file"
        return units, node, Entity(name, scope, _loc(main, decl.name_node))
    return None


# -- definition and declaration ------------------------------------------------------------


def _function_sites(units: list[Unit], name: str) -> tuple[list[Location], list[Location]]:
    """(definitions, prototypes) of the function `name` across `units`, as declaring names."""
    defs, protos = [], []
    for u in units:
        info = u.model.functions.get(name)
        if info is None:
            continue
        for node, out in ([(info.definition, defs)] if info.definition is not None else []) + \
                [(p, protos) for p in info.prototypes]:
            n = next((n for n in walk(node) if n.type == "identifier" and names.text(u.text, n) == name), None)
            if n is not None:
                out.append(_loc(u, n))
    return defs, protos


def definition(snap, file: FileId, offset: int) -> list[Location]:
    found = entity_at(snap, file, offset)
    if found is None:
        return []
    units, _, e = found
    if e.scope == "file":
        defs, _ = _function_sites(units, e.name)
        if defs:
            return defs[:1]
    return [e.decl]


def declaration(snap, file: FileId, offset: int) -> list[Location]:
    """A function's first prototype if it has one, else its definition; other names: their declaration."""
    found = entity_at(snap, file, offset)
    if found is None:
        return []
    units, _, e = found
    if e.scope == "file":
        defs, protos = _function_sites(units, e.name)
        if protos or defs:
            return (protos or defs)[:1]
    return [e.decl]


# -- references, highlights, rename ---------------------------------------------------------


def _scope_units(snap, file: FileId, units: list[Unit], e: Entity) -> list[Unit]:
    """Where a file-level name or macro can be used: the cursor's file and its includes, and
    every open file whose includes reach the declaring file."""
    if e.scope == "block":
        return units[:1]
    out = {u.file: u for u in units}
    if e.decl.file != file:
        for other in snap.files():
            if other in out:
                continue
            theirs = closure(snap, other)
            if any(u.file == e.decl.file for u in theirs):
                out.setdefault(other, theirs[0])
                for u in theirs:
                    out.setdefault(u.file, u)
    return list(out.values())


def _uses(u: Unit, e: Entity) -> list[Node]:
    want = e.name.encode()
    out = []
    for n in walk(u.tree.root_node):
        if n.type not in names.NAME_KINDS or u.text[n.start_byte:n.end_byte] != want:
            continue
        if e.scope == "macro":
            if u.file == e.decl.file and n.start_byte == e.decl.start:
                out.append(n)
                continue
            md = u.view.macro_at(e.name, n.start_byte)
            if md is not None and (md.span.file, md.span.start) == (e.decl.file, e.decl.start):
                out.append(n)
            continue
        if n.type == "field_identifier":
            continue
        sym = u.model.resolve(n)
        shadowed = sym is not None and (sym.kind in _BLOCK_KINDS or sym.scope_start > 0)
        file_level = not shadowed
        if file_level and u.view.macro_at(e.name, n.start_byte) is None:
            out.append(n)
    return out


def references(snap, file: FileId, offset: int, include_declaration: bool = True) -> list[Location]:
    found = entity_at(snap, file, offset)
    if found is None:
        return []
    units, _, e = found
    if e.scope == "block":
        main = units[0]
        if e.symbol is not None and e.symbol.kind == SymbolKind.FIELD:
            nodes = [n for n in walk(main.tree.root_node) if n.type == "field_identifier"
                     and names.text(main.text, n) == e.name and _same_field(main, n, e)]
        else:
            nodes = main.model.references(e.symbol) if e.symbol is not None else []
        locs = [_loc(main, n) for n in nodes]
    else:
        locs = [_loc(u, n) for u in _scope_units(snap, file, units, e) for n in _uses(u, e)]
    if not include_declaration:
        locs = [loc for loc in locs if loc != e.decl]
    return sorted(set(locs), key=lambda loc: (loc.file != file, str(loc.file), loc.start))


def _same_field(u: Unit, n: Node, e: Entity) -> bool:
    if n.start_byte == e.decl.start:
        return True
    sym = u.model.resolve(n)
    return sym is not None and sym.node is not None and sym.node.start_byte == e.decl.start


def highlights(snap, file: FileId, offset: int) -> list[Location]:
    return [loc for loc in references(snap, file, offset) if loc.file == file]


def prepare_rename(snap, file: FileId, offset: int) -> Location | None:
    """The name to rename under the cursor; None for built-ins and names declared nowhere."""
    found = entity_at(snap, file, offset)
    if found is None:
        return None
    units, node, _ = found
    return _loc(units[0], node)


def valid_name(name: str) -> bool:
    """An identifier that is not a C or OpenCL C keyword."""
    return bool(_IDENTIFIER.match(name)) and name not in _RESERVED


def rename(snap, file: FileId, offset: int, new_name: str) -> dict[FileId, list[Location]] | None:
    """Every range to replace with `new_name`, per file; None when it cannot be renamed.
    Raises ValueError when `new_name` is not a usable identifier."""
    if not valid_name(new_name):
        raise ValueError(f"'{new_name}' is not a valid identifier")
    locs = references(snap, file, offset)
    if not locs:
        return None
    out: dict[FileId, list[Location]] = {}
    for loc in locs:
        out.setdefault(loc.file, []).append(loc)
    return out


# -- workspace symbols ----------------------------------------------------------------------

_WORKSPACE_KINDS = frozenset({"kernel", "function", "struct", "macro"})


def fuzzy_rank(query: str, name: str) -> int | None:
    """0: prefix (case-insensitive), 1: substring, 2: the query's letters in order; None: no match."""
    q, n = query.lower(), name.lower()
    if n.startswith(q):
        return 0
    if q in n:
        return 1
    it = iter(n)
    return 2 if all(c in it for c in q) else None


def workspace_symbols(snap, query: str, limit: int = 500) -> list[WorkspaceSymbol]:
    """Kernels, functions, structs and macros of every open file matching `query`."""
    ranked = []
    for file in sorted(snap.files(), key=str):
        src = snap.text(file)
        for s in document_symbols(snap.tree(file), src):
            if s.kind not in _WORKSPACE_KINDS or (rank := fuzzy_rank(query, s.name)) is None:
                continue
            ranked.append((rank, s.name.lower(), WorkspaceSymbol(s.name, s.kind, file, s.start, s.end,
                                                                 s.name_start, s.name_end)))
    ranked.sort(key=lambda r: (r[0], r[1]))
    return [r[2] for r in ranked[:limit]]
