"""Preprocessor view of a source file: directives, `#if` conditions, macros, includes, pragmas.

Pure: files arrive as bytes, `#include` goes through an injected resolver. See `view.build_view`.
"""

from .directives import Directive, Pragma, scan_directives
from .expr import Condition, Env, ExprError
from .view import Branch, IncludeRef, IncludeResolver, MacroDef, PragmaEvent, PreprocessorView, build_view

__all__ = [
    "Branch", "Condition", "Directive", "Env", "ExprError", "IncludeRef", "IncludeResolver",
    "MacroDef", "Pragma", "PragmaEvent", "PreprocessorView", "build_view", "scan_directives",
]  # fmt: skip
