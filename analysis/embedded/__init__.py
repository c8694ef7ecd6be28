"""OpenCL C where it lives: kernels inside Python (pyopencl) and C/C++ host code.

`find_kernels(path, source)` finds them (tree-sitter's Python and C++ grammars);
`lint_host(...)` lints each with every rule and maps the diagnostics back into the host file.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .kernel import HostKernel
    from .languages import HostLanguage, host_language, is_host_file
    from .lint import find_kernels, lint_host

__all__ = ["HostKernel", "HostLanguage", "find_kernels", "host_language", "is_host_file", "lint_host"]

# Loaded on first use (PEP 562), so that `cllint check` on .cl files, which only asks
# `languages.host_language`, does not import the Python and C++ host searches (~4 ms).
_HOME = {"HostKernel": ".kernel", "HostLanguage": ".languages", "host_language": ".languages",
         "is_host_file": ".languages", "find_kernels": ".lint", "lint_host": ".lint"}


def __getattr__(name: str) -> Any:
    if name not in _HOME:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(_HOME[name], __name__), name)
    globals()[name] = value
    return value
