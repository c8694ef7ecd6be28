"""Kernels a build file lists, read as the host builds them (issue 29).

CMake projects name their kernels in calls like `add_kernels(vme_hme_lib "a.cl" "b.cl")`,
a function of their own whose body copies (links, installs) each argument into one folder,
or directly with `install(FILES a.cl ../b/c.cl DESTINATION ...)` / `file(COPY ...)`. At run
time the listed files lie side by side: an `#include "c.cl"` in one of them reads the listed
`../b/c.cl`, whatever other `c.cl` the workspace holds.

The host then builds one file by name, which `#include`s its siblings in order: a source so
included is part of its includer's program, read after the includer's text before the
`#include` line, with what that text includes (`included_programs`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

_OPENCL = (".cl", ".clh", ".ocl", ".opencl")
_DEFINITION = lazy(rb"^[ \t]*(?:function|macro)[ \t]*\([ \t]*([A-Za-z_]\w*)(.*?)^[ \t]*end(?:function|macro)\b",
                   re.M | re.S | re.I)
# What a body does to its arguments that leaves them side by side: links, copies, installs.
_COPIES = lazy(rb"create_symlink|CREATE_LINK|create_hardlink|copy_if_different|-E[ \t]+copy\b|\bfile[ \t]*\([ \t]*COPY\b"
               rb"|\bconfigure_file[ \t]*\(|\binstall[ \t]*\([ \t]*FILES\b|\bmklink\b", re.I)
_CALL = lazy(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*\(", re.M)
_BUILTIN_COPY = lazy(rb"^(?:install[ \t]*\([ \t]*FILES|file[ \t]*\([ \t]*COPY)\b", re.I)
_ARG = lazy(rb'"([^"\n]*)"|([^\s()"]+)')
_SOURCE_DIR = lazy(r"^\$\{(?:CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)\}/")
_INCLUDE = lazy(rb"^[ \t]*#[ \t]*include[ \t]*\"([^\"\n]+)\"", re.M)
_MAX_CALL = 20_000  # bytes of one call's arguments


def _comment_free(text: bytes) -> bytes:
    return re.sub(rb"#[^\n]*", b"", text)


def _arguments(text: bytes, at: int) -> list[str] | None:
    """The arguments of the call whose `(` ends at `at` (None: not closed)."""
    depth, i = 0, at
    end = min(len(text), at + _MAX_CALL)
    while i < end:
        c = text[i:i + 1]
        if c == b"(":
            depth += 1
        elif c == b")":
            if depth == 0:
                return [(m.group(1) if m.group(1) is not None else m.group(2)).decode("utf-8", "replace")
                        for m in _ARG.finditer(text, at, i)]
            depth -= 1
        i += 1
    return None


def copying_commands(texts: Iterable[bytes]) -> frozenset[str]:
    """Functions and macros (lower case: CMake's names are case-blind) whose body copies,
    links or installs what it is given."""
    out: set[str] = set()
    for text in texts:
        for m in _DEFINITION.finditer(_comment_free(text)):
            if _COPIES.search(m.group(2)):
                out.add(m.group(1).decode().lower())
    return frozenset(out)


def listed_groups(build_files: Mapping[Path, bytes], known: set[Path]) -> list[tuple[Path, ...]]:
    """The OpenCL sources each copying call lists (resolved from its file's folder, those
    the workspace has), in the order written; a call naming one source lists no group."""
    commands = copying_commands(build_files.values())
    groups: list[tuple[Path, ...]] = []
    for path, raw in build_files.items():
        text = _comment_free(raw)
        for m in _CALL.finditer(text):
            name = m.group(1).decode().lower()
            if name not in commands and not _BUILTIN_COPY.match(text, m.start(1)):
                continue
            args = _arguments(text, m.end())
            if not args:
                continue
            members = []
            for arg in args:
                arg = _SOURCE_DIR.sub("", arg)
                if not arg.lower().endswith(_OPENCL) or "${" in arg:
                    continue
                target = Path(os.path.normpath(path.parent / arg))
                if target in known and target not in members:
                    members.append(target)
            if len(members) >= 2:
                groups.append(tuple(members))
    return groups


def colocated_dirs(groups: Iterable[tuple[Path, ...]], sources: Mapping[Path, bytes]) -> dict[Path, tuple[str, ...]]:
    """Per listed source, the folders of the listed files its `#include "name"` means: a name
    that does not resolve beside it and that one member of its group from another folder has."""
    out: dict[Path, list[str]] = {}
    for group in groups:
        by_name: dict[str, list[Path]] = {}
        for member in group:
            by_name.setdefault(member.name, []).append(member)
        for member in group:
            data = sources.get(member)
            if data is None or b"include" not in data:
                continue
            for raw in _INCLUDE.findall(data):
                name = raw.decode("utf-8", "replace").strip()
                hits = by_name.get(name, [])
                if "/" in name or len(hits) != 1 or hits[0].parent == member.parent \
                        or (member.parent / name).is_file():
                    continue
                folder = str(hits[0].parent)
                if folder not in out.setdefault(member, []):
                    out[member].append(folder)
    return {p: tuple(f) for p, f in out.items()}


def _resolve(name: str, including: Path, dirs: tuple[str, ...]) -> Path | None:
    for folder in (including.parent, *map(Path, dirs)):
        candidate = folder / name
        if candidate.is_file():
            return Path(os.path.normpath(candidate))
    return None


def includers(sources: Mapping[Path, bytes], dirs: Mapping[Path, tuple[str, ...]]) -> dict[Path, set[Path]]:
    """Per source another source `#include`s, the sources that do."""
    out: dict[Path, set[Path]] = {}
    for includer, data in sources.items():
        if b"include" not in data:
            continue
        for raw in _INCLUDE.findall(data):
            target = _resolve(raw.decode("utf-8", "replace").strip(), includer, dirs.get(includer, ()))
            if target is not None and target in sources and target != includer:
                out.setdefault(target, set()).add(includer)
    return out


def included_programs(sources: Mapping[Path, bytes], dirs: Mapping[Path, tuple[str, ...]]) \
        -> dict[Path, tuple[tuple[str, ...], tuple[str, int, int], tuple[str, ...]]]:
    """Per source another source `#include`s: its prelude, the includer's text before that
    `#include` line (includer_heads.py: what it defines and includes there, as the compiler reads
    it first), CL007's note, and the includer with the sources that text includes (what the
    head stands for). The includer in the source's own folder wins, then the first by path."""
    found: dict[Path, list[tuple[bool, Path, str, int, tuple[Path, ...]]]] = {}
    for includer in sorted(sources):
        data = sources[includer]
        if b"include" not in data:
            continue
        before: list[Path] = []
        for m in _INCLUDE.finditer(data):
            spelled = m.group(1).decode("utf-8", "replace")
            target = _resolve(spelled.strip(), includer, dirs.get(includer, ()))
            if target is None:
                continue
            if target in sources and target != includer:
                line = data.count(b"\n", 0, m.start()) + 1
                found.setdefault(target, []).append((target.parent != includer.parent, includer, spelled, line,
                                                     tuple(before)))
            if target not in before:
                before.append(target)
    out: dict[Path, tuple[tuple[str, ...], tuple[str, int, int], tuple[str, ...]]] = {}
    if not found:
        return out  # (most workspaces: no source includes another; the heads' module stays unloaded)
    from cllint.analysis.preprocessor.includer_heads import head_entry

    for path, options in found.items():
        _, includer, spelled, line, before = min(options)
        note = (f"read after {includer.name} up to its line {line}, which includes it into one program", -1, -1)
        out[path] = ((head_entry(str(includer), spelled),), note,
                     (str(includer), *(str(p) for p in before if p != path)))
    return out


# A build step that joins kernels into one file: `cat a.cl ../b/c.cl > all.cl` in a Makefile
# rule, a CMake `COMMAND cat ${CMAKE_CURRENT_SOURCE_DIR}/a.cl ... > out.cl`. The output is the
# program (often embedded into the host as a string); each listed file is read after those
# listed before it.
_CAT = lazy(rb"(?<![\w-])cat[ \t]+([^\n>|;&]*?)[ \t]*>", re.M)
_MAKE_DIR = lazy(r"^(?:\$[({](?:CURDIR|CMAKE_CURRENT_SOURCE_DIR|CMAKE_CURRENT_LIST_DIR)[)}]|\.)/")


def concatenated_programs(build_files: Mapping[Path, bytes], known: set[Path]) \
        -> dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]]:
    """Per source a `cat` step joins after others: those others, in order, and CL007's note
    (the first step naming the source wins)."""
    out: dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]] = {}
    for path in sorted(build_files):
        text = build_files[path]
        if b"cat" not in text:
            continue
        for m in _CAT.finditer(text):
            members: list[Path] = []
            for word in m.group(1).decode("utf-8", "replace").split():
                word = _MAKE_DIR.sub("", word.strip("\"'"))
                if not word.lower().endswith(_OPENCL) or "$" in word:
                    continue
                target = Path(os.path.normpath(path.parent / word))
                if target in known and target not in members:
                    members.append(target)
            line = text.count(b"\n", 0, m.start()) + 1
            for i, member in enumerate(members):
                if i == 0 or member in out:
                    continue
                names = ", ".join(p.name for p in members[:i])
                out[member] = (tuple(str(p) for p in members[:i]),
                               (f"read after {names}, as {path.name}:{line} joins them into one program", -1, -1))
    return out
