"""The semantic model of an OpenCL C file: symbols, scopes, types and address spaces.

Entry point: `SemanticModel(tree, source, target, macro_expander=None)`.
"""

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

__all__ = [
    "AddressSpace", "Array", "Enum_", "Field", "FileIndex", "Function", "FunctionInfo", "FunctionModel",
    "Opaque", "Pipe", "Pointer", "Scalar", "Scope", "ScopeKind", "SemanticModel", "Struct", "Symbol",
    "SymbolKind", "Type", "Unknown", "Vector", "common_address_space", "default_pointee_space",
    "is_enclosed", "swizzle_type",
]
