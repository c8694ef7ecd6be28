"""OpenCL C kept in files with a C or C++ suffix that a host joins into a program (issue 29).

Some projects give the parts of a program a C++ suffix so that an editor highlights them, and
the host names them, in order, in one list with the kernel file that comes last:

    std::string files[5] = { dir + "/kernels/code_head.cpp", dir + "/kernels/matrix.cpp", ...,
                             dir + "/kernels/kernel2.cl" };  // the order is important

A file named so is a *companion*: a C-family name and an OpenCL source's name in one statement,
the companion in the same folder as that source (a host's own files, named in a build list
beside a kernel elsewhere, are not). The program is the statement's names in order; the
companions are read before the kernel and never linted themselves.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .hosts import HOST_NAMES, HostProgram

_OPENCL = (".cl", ".clh", ".ocl", ".opencl")
_C_FAMILY = (".c", ".cc", ".cpp", ".cxx", ".h", ".hh", ".hpp")
# A quoted file name with one of those suffixes (found by the suffix's dot and closing quote)
_NAMED = lazy(rb"""["']([^"'\n]{1,200}?\.(?:cl|clh|ocl|opencl|c|cc|cpp|cxx|h|hh|hpp))["']""")
_MAX_STATEMENT = 2000  # bytes of one statement's list


def companion_programs(hosts: Mapping[Path, bytes], sources: Iterable[Path],
                       files: Iterable[Path]) -> tuple[list[Path], list[HostProgram]]:
    """The companions the hosts name, and the programs they join (each a statement's names in
    order, the OpenCL source among them last or not)."""
    by_source_name: dict[str, list[Path]] = {}
    for p in sources:
        by_source_name.setdefault(p.name, []).append(p)
    by_name: dict[str, list[Path]] = {}
    for p in files:
        if p.suffix.lower() in _C_FAMILY:
            by_name.setdefault(p.name, []).append(p)
    companions: dict[Path, None] = {}
    programs: list[HostProgram] = []
    for host, text in sorted(hosts.items()):
        if host.name in HOST_NAMES or host.suffix.lower() == ".cmake" or b".cl" not in text:
            continue
        for statement_at, names in _statements(text):
            kernels = [by_source_name[n.name][0] for n in names
                       if n.suffix in _OPENCL and len(by_source_name.get(n.name, ())) == 1]
            if not kernels:
                continue
            folders = {k.parent for k in kernels}
            found: list[Path] = []
            for n in names:
                if n.suffix.lower() in _C_FAMILY:
                    beside = [p for p in by_name.get(n.name, ()) if p.parent in folders and p != host]
                    if len(beside) == 1:
                        found.append(beside[0])
                elif n.suffix in _OPENCL and len(by_source_name.get(n.name, ())) == 1:
                    found.append(by_source_name[n.name][0])
            if not any(p.suffix.lower() in _C_FAMILY for p in found) or len(found) < 2:
                continue
            companions.update(dict.fromkeys(p for p in found if p.suffix.lower() in _C_FAMILY))
            line = text.count(b"\n", 0, statement_at) + 1
            programs.append(HostProgram(tuple(p.stem for p in found), host, line))
    return list(companions), programs


def _statements(text: bytes) -> Iterable[tuple[int, list[Path]]]:
    """Each statement's quoted file names (two or more), in order, with where it starts."""
    group: list[Path] = []
    start = last = -1
    for m in _NAMED.finditer(text):
        if group and (b";" in text[last:m.start()] or m.start() - start > _MAX_STATEMENT):
            if len(group) >= 2:
                yield start, group
            group = []
        if not group:
            start = m.start()
        group.append(Path(m.group(1).decode("utf-8", "replace")))
        last = m.end()
    if len(group) >= 2:
        yield start, group
