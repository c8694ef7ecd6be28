"""OpenCL C where it lives: kernels inside Python (pyopencl) and C/C++ host code.

`find_kernels(path, source)` finds them (tree-sitter's Python and C++ grammars);
`lint_host(...)` lints each with every rule and maps the diagnostics back into the host file.
"""

from __future__ import annotations

from .kernel import HostKernel
from .languages import HostLanguage, host_language, is_host_file
from .lint import find_kernels, lint_host

__all__ = ["HostKernel", "HostLanguage", "find_kernels", "host_language", "is_host_file", "lint_host"]
