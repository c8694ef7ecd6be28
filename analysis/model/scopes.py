"""Symbols and lexical scopes (file, function, block) of one OpenCL C file."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from tree_sitter import Node

from .decls import Attribute
from .types import AddressSpace, Type


class SymbolKind(Enum):
    FUNCTION = "function"
    PARAMETER = "parameter"
    LOCAL = "local"
    GLOBAL = "global"
    TYPEDEF = "typedef"
    STRUCT = "struct"
    UNION = "union"
    ENUM = "enum"
    ENUMERATOR = "enumerator"
    FIELD = "field"
    BUILTIN = "builtin"


@dataclass(frozen=True, eq=False)
class Symbol:
    """A named entity. Compared by identity: two `int x;` in different blocks are different."""

    name: str
    kind: SymbolKind
    type: Type
    node: Node | None = None  # the name in its declarator
    decl: Node | None = None  # the whole declaration (or function_definition)
    space: AddressSpace | None = None  # where the object lives (variables, parameters)
    space_explicit: bool = False  # the space was written rather than inferred
    storage: frozenset[str] = frozenset()  # static, extern, inline...
    cv: frozenset[str] = frozenset()
    is_kernel: bool = False
    attributes: tuple[Attribute, ...] = ()
    scope_start: int = 0  # start byte of the declaring scope (identifies it cheaply)
    in_kernel_scope: bool = False  # declared in the outermost block of a kernel (6.7 local/constant)

    @property
    def offset(self) -> int:
        return self.node.start_byte if self.node is not None else -1


class ScopeKind(Enum):
    FILE = "file"
    FUNCTION = "function"
    BLOCK = "block"


@dataclass(eq=False)
class Scope:
    kind: ScopeKind
    start: int
    end: int
    node: Node | None = None
    parent: Scope | None = None
    symbols: dict[str, Symbol] = field(default_factory=dict)
    children: list[Scope] = field(default_factory=list)

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
