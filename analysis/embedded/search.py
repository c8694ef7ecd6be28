"""Which host files are worth searching for kernels when a folder is linted (a cheap test on
the bytes; the tree-sitter search decides what is a kernel)."""

from __future__ import annotations

import re

from .languages import HostLanguage, host_language
from .python_host import imports_pyopencl

_CPP_HINTS = re.compile(rb"clCreateProgramWithSource|cl::Program|cllint:\s*opencl")


def worth_searching(path: str, source: bytes) -> bool:
    language = host_language(path)
    if language is HostLanguage.PYTHON:
        return imports_pyopencl(source) or b"cllint: opencl" in source
    if language is HostLanguage.CPP:
        return _CPP_HINTS.search(source) is not None
    return False
