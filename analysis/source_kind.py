"""Files named like OpenCL C that are not OpenCL C (issue 29, item 4).

Projects keep other text under OpenCL's extensions: CUDA sources beside the OpenCL ones (the
build picks one), code-generator templates written as C string literals (clBLAS), and kernels
wrapped for `#include` into C++ as a string (`R"( ... )"` pieces, `MSTRINGIFY( ... )`). A
compiler never sees such a file as it is, so every report on it would be noise: it is skipped
with one note (CL006). Recognised by the first code after comments and directives, or, for
CUDA and C++, by a construct OpenCL C cannot have anywhere in the file.
"""

from __future__ import annotations

import re

# comments, blank space and directive lines (`#ifndef PURE_CL` may guard a template's C wrapper)
_LEADING = re.compile(rb"(?:\s+|//[^\n]*|/\*(?:[^*]|\*(?!/))*\*/|#[^\n]*)*")

# What the first code says.
_FIRST: list[tuple[str, re.Pattern[bytes]]] = [
    ("a C string holding a code generator's template",
     re.compile(rb"(?:static\s+)?const\s+char\s*\*\s*\w+\s*(?:\[\s*\])?\s*=\s*\"")),
    # One `R"( ... )"` around the whole file is read by the grammar (CLBlast's `.opencl`);
    # several pieces joined by the C++ compiler are not.
    ("C++ raw string literals in several pieces holding kernel text (the host includes it into a string)",
     re.compile(rb"(?:u8|[uUL])?R\"([^\s()\\]{0,16})\((?:.(?!\)\1\"))*.\)\1\"\s*(?://[^\n]*\s*)*(?:u8|[uUL])?R\"", re.S)),
    ("a macro that turns the text into a C string (the host includes it into a string)",
     re.compile(rb"[A-Z_][A-Z0-9_]*STRINGIFY[A-Z0-9_]*\s*\(")),
]
# What the whole file may show.
_ANYWHERE: list[tuple[str, re.Pattern[bytes]]] = [
    ("CUDA source", re.compile(
        rb"^[ \t]*(?:#[ \t]*include[ \t]*[<\"]cuda|extern[ \t]+\"C\"[ \t]+__global__|(?:static[ \t]+)?__global__[ \t]+void\b|"
        rb"(?:static[ \t]+|inline[ \t]+)*__device__[ \t]+\w)",
        re.M)),
    ("C++ source", re.compile(rb"^[ \t]*(?:template[ \t]*<[ \t]*(?:typename|class)\b|namespace[ \t]+\w+[ \t]*\{|"
                              rb"#[ \t]*include[ \t]*<(?:iostream|vector|string|cstdio|cstdlib|cmath)>)", re.M)),
]


def not_opencl_reason(data: bytes) -> str | None:
    """Why a file with an OpenCL extension is not OpenCL C, or None when it may be."""
    first = _LEADING.match(data)
    at = first.end() if first else 0
    for reason, pattern in _FIRST:
        if pattern.match(data, at):
            return reason
    for reason, pattern in _ANYWHERE:
        if pattern.search(data):
            return reason
    return None


_RAW_OPEN = re.compile(rb"(?:u8|[uUL])?R\"([^\s()\\\"]{0,16})\(")


def without_raw_string(data: bytes) -> bytes:
    """A file that is one C++ raw string around kernel text (`R"( ... )"`, which the grammar
    reads) as a compiler sees the text: the two markers blanked, every offset kept."""
    first = _LEADING.match(data)
    at = first.end() if first else 0
    m = _RAW_OPEN.match(data, at)
    if m is None:
        return data
    close = b")" + m.group(1) + b'"'
    end = data.rfind(close)
    if end < m.end():
        return data
    return data[:m.start()] + b" " * (m.end() - m.start()) + data[m.end():end] + b" " * len(close) + data[end + len(close):]
