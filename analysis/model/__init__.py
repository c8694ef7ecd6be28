"""The semantic model of an OpenCL C file: symbols, scopes, types and address spaces.

Entry point: `SemanticModel(tree, source, target, macro_expander=None)`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .scopes import Scope, ScopeKind, Symbol, SymbolKind
    from .symbols import FileIndex, FunctionInfo, FunctionModel, SemanticModel
    from .types import (
        AddressSpace,
        Array,
        Enum_,
        Field,
        Function,
        Opaque,
        Pipe,
        Pointer,
        Scalar,
        Struct,
        Type,
        Unknown,
        Vector,
        common_address_space,
        default_pointee_space,
        is_enclosed,
        swizzle_type,
    )


# Loaded on first use (PEP 562): importing one submodule (`model.walk`) must not pay for
# the whole package at start-up.
_HOME = {name: module for module, names in {
    ".scopes": "Scope ScopeKind Symbol SymbolKind",
    ".symbols": "FileIndex FunctionInfo FunctionModel SemanticModel",
    ".types": (
        "AddressSpace Array Enum_ Field Function Opaque Pipe Pointer Scalar Struct Type Unknown Vector "
        "common_address_space default_pointee_space is_enclosed swizzle_type"
    ),
}.items() for name in names.split()}
__all__ = sorted(_HOME)


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_HOME[name], __name__), name)
    globals()[name] = value
    return value
