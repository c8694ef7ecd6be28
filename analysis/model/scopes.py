"""Symbols and lexical scopes (file, function, block) of one OpenCL C file."""

from __future__ import annotations

from typing import ClassVar

from tree_sitter import Node

from cllint.analysis.records import FixedMember

from .decls import Attribute
from .types import AddressSpace, Type


class SymbolKind(FixedMember):
    __slots__ = ()
    FUNCTION: ClassVar[SymbolKind]
    PARAMETER: ClassVar[SymbolKind]
    LOCAL: ClassVar[SymbolKind]
    GLOBAL: ClassVar[SymbolKind]
    TYPEDEF: ClassVar[SymbolKind]
    STRUCT: ClassVar[SymbolKind]
    UNION: ClassVar[SymbolKind]
    ENUM: ClassVar[SymbolKind]
    ENUMERATOR: ClassVar[SymbolKind]
    FIELD: ClassVar[SymbolKind]
    BUILTIN: ClassVar[SymbolKind]


SymbolKind.define(
    FUNCTION="function",
    PARAMETER="parameter",
    LOCAL="local",
    GLOBAL="global",
    TYPEDEF="typedef",
    STRUCT="struct",
    UNION="union",
    ENUM="enum",
    ENUMERATOR="enumerator",
    FIELD="field",
    BUILTIN="builtin",
)


class Symbol:
    """A named entity. Compared by identity: two `int x;` in different blocks are different."""

    __slots__ = ("name", "kind", "type", "node", "decl", "space", "space_explicit", "storage", "cv",
                 "is_kernel", "attributes", "scope_start", "in_kernel_scope")
    name: str
    kind: SymbolKind
    type: Type
    node: Node | None  # the name in its declarator
    decl: Node | None  # the whole declaration (or function_definition)
    space: AddressSpace | None  # where the object lives (variables, parameters)
    space_explicit: bool  # the space was written rather than inferred
    storage: frozenset[str]  # static, extern, inline...
    cv: frozenset[str]
    is_kernel: bool
    attributes: tuple[Attribute, ...]
    scope_start: int  # start byte of the declaring scope (identifies it cheaply)
    in_kernel_scope: bool  # declared in the outermost block of a kernel (6.7 local/constant)

    __match_args__ = ("name", "kind", "type", "node", "decl", "space", "space_explicit", "storage", "cv",
                      "is_kernel", "attributes", "scope_start", "in_kernel_scope")

    def __init__(
        self,
        name: str,
        kind: SymbolKind,
        type: Type,
        node: Node | None = None,
        decl: Node | None = None,
        space: AddressSpace | None = None,
        space_explicit: bool = False,
        storage: frozenset[str] = frozenset(),
        cv: frozenset[str] = frozenset(),
        is_kernel: bool = False,
        attributes: tuple[Attribute, ...] = (),
        scope_start: int = 0,
        in_kernel_scope: bool = False,
    ) -> None:
        self.name = name
        self.kind = kind
        self.type = type
        self.node = node
        self.decl = decl
        self.space = space
        self.space_explicit = space_explicit
        self.storage = storage
        self.cv = cv
        self.is_kernel = is_kernel
        self.attributes = attributes
        self.scope_start = scope_start
        self.in_kernel_scope = in_kernel_scope

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"kind={self.kind!r}, "
                f"type={self.type!r}, " f"node={self.node!r}, " f"decl={self.decl!r}, "
                f"space={self.space!r}, " f"space_explicit={self.space_explicit!r}, "
                f"storage={self.storage!r}, " f"cv={self.cv!r}, " f"is_kernel={self.is_kernel!r}, "
                f"attributes={self.attributes!r}, " f"scope_start={self.scope_start!r}, "
                f"in_kernel_scope={self.in_kernel_scope!r})")

    @property
    def offset(self) -> int:
        return self.node.start_byte if self.node is not None else -1


class ScopeKind(FixedMember):
    __slots__ = ()
    FILE: ClassVar[ScopeKind]
    FUNCTION: ClassVar[ScopeKind]
    BLOCK: ClassVar[ScopeKind]


ScopeKind.define(FILE="file", FUNCTION="function", BLOCK="block")


class Scope:
    kind: ScopeKind
    start: int
    end: int
    node: Node | None
    parent: Scope | None
    symbols: dict[str, Symbol]
    children: list[Scope]

    __match_args__ = ("kind", "start", "end", "node", "parent", "symbols", "children")

    def __init__(
        self,
        kind: ScopeKind,
        start: int,
        end: int,
        node: Node | None = None,
        parent: Scope | None = None,
        symbols: dict[str, Symbol] | None = None,
        children: list[Scope] | None = None,
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.node = node
        self.parent = parent
        self.symbols = {} if symbols is None else symbols
        self.children = [] if children is None else children

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"kind={self.kind!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"node={self.node!r}, " f"parent={self.parent!r}, "
                f"symbols={self.symbols!r}, " f"children={self.children!r})")

    def lookup(self, name: str) -> Symbol | None:
        s: Scope | None = self
        while s is not None:
            found = s.symbols.get(name)
            if found is not None:
                return found
            s = s.parent
        return None

    def innermost(self, offset: int) -> Scope:
        s = self
        while True:
            nxt = next((c for c in s.children if c.start <= offset < c.end), None)
            if nxt is None:
                return s
            s = nxt
