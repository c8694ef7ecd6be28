"""Macro names the workspace's host code passes to the OpenCL compiler with `-D`.

Hosts build their options at run time (`"-D T=" + type_name`, `f"-DTILE={tile}"`, a C++
macro that stringizes its argument after `" -D "`), so the values are rarely knowable, but the
names are: every `-D NAME` written in host code or build files, and every argument a host macro
stringizes after a `-D` (`#define DefineKey(arg) " -D " #arg` makes `DefineKey(kDim)` a `-D
kDim`). A kernel's use of such a name is the host's business: no report says it is undeclared.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable
from pathlib import Path

HOST_SUFFIXES = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".py",
                           ".cmake", ".java", ".rs", ".go", ".cs", ".jl", ".m", ".mm"})
HOST_NAMES = frozenset({"CMakeLists.txt", "Makefile", "makefile", "GNUmakefile", "meson.build", "configure.ac"})
MAX_HOST_BYTES = 4 * 1024 * 1024
SKIP_DIRS = frozenset({".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__", ".cllint_cache"})

# `-D NAME` after a quote, space, `(` or `,` (an option in a string, a list, a command line).
_OPTION = re.compile(rb"""(?:^|(?<=["'\s(,\[{]))-D[ \t]*([A-Za-z_]\w*)""", re.M)
# A macro whose body stringizes one of its parameters right after a `-D` in a string.
_STRINGIZING = re.compile(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)\(([^)]*)\)((?:[^\n\\]|\\.)*)", re.S)
_AFTER_D = re.compile(rb"-D[ \t]*\"[ \t]*#[ \t]*([A-Za-z_]\w*)")


def host_files(roots: Iterable[Path]) -> list[Path]:
    out: list[Path] = []
    for root in roots:
        if root.is_file():
            continue
        for folder, dirs, files in os.walk(root):
            dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
            for name in files:
                if name in HOST_NAMES or os.path.splitext(name)[1].lower() in HOST_SUFFIXES:
                    out.append(Path(folder, name))
    return out


def host_macros(paths: Iterable[Path]) -> frozenset[str]:
    texts: list[bytes] = []
    for p in paths:
        try:
            if p.stat().st_size <= MAX_HOST_BYTES:
                texts.append(p.read_bytes())
        except OSError:
            continue
    return macros_in(texts)


def macros_in(texts: list[bytes]) -> frozenset[str]:
    names: set[bytes] = set()
    makers: dict[bytes, int] = {}  # stringizing macro -> index of the parameter after `-D`
    for text in texts:
        if b"-D" not in text:
            continue
        names.update(_OPTION.findall(text))
        for m in _STRINGIZING.finditer(text):
            after = _AFTER_D.search(m.group(3))
            if after is None:
                continue
            params = [p.strip() for p in m.group(2).split(b",")]
            if after.group(1) in params:
                makers[m.group(1)] = params.index(after.group(1))
    if makers:
        call = re.compile(rb"\b(" + b"|".join(re.escape(k) for k in makers) + rb")\s*\(([^()]*)\)")
        for text in texts:
            for m in call.finditer(text):
                args = [a.strip() for a in m.group(2).split(b",")]
                i = makers[m.group(1)]
                if i < len(args) and re.fullmatch(rb"[A-Za-z_]\w*", args[i]):
                    names.add(args[i])
    return frozenset(n.decode() for n in names)
