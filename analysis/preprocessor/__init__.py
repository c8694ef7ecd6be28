"""Preprocessor view of a source file: directives, `#if` conditions, macros, includes, pragmas.

Pure: files arrive as bytes, `#include` goes through an injected resolver. See `view.build_view`.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .directives import Directive, Pragma, scan_directives
    from .expr import Condition, Env, ExprError
    from .view import Branch, IncludeRef, IncludeResolver, MacroDef, PragmaEvent, PreprocessorView, build_view

__all__ = [
    "Branch", "Condition", "Directive", "Env", "ExprError", "IncludeRef", "IncludeResolver",
    "MacroDef", "Pragma", "PragmaEvent", "PreprocessorView", "build_view", "scan_directives",
]  # fmt: skip

# Loaded on first use (PEP 562): importing one submodule (`preprocessor.view`) must not
# pay for the others at start-up.
_HOME = {name: module for module, names in {
    ".directives": "Directive Pragma scan_directives",
    ".expr": "Condition Env ExprError",
    ".view": "Branch IncludeRef IncludeResolver MacroDef PragmaEvent PreprocessorView build_view",
}.items() for name in names.split()}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_HOME[name], __name__), name)
    globals()[name] = value
    return value
