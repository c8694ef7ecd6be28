"""Programs inferred from the workspace when nothing says how a file is built (issue 29, 2c).

A file that uses names it does not define, which exactly one other source of the workspace
defines (or, for a library piece, a file with no kernel that another source includes, where
several do, exactly one in its own folder that defines no kernel either: the library its folder
shares, whatever copies lie elsewhere), is a fragment: the host joins that source before it. Such a source is read before the
file (the file's *prelude*, as includes at offset 0), with the sources it needs in turn, in
dependency order. A source that defines a function the file defines too cannot be in its
program (the two would be alternatives), nor can one the file includes already.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from cllint.analysis.lazy_re import lazy
from .index import FileIndex

_INCLUDE = lazy(rb"^[ \t]*#[ \t]*include\b([^\n]*)", re.M)
_FILE_NAME = lazy(rb"[\w.+-]+\.\w+")
_QUOTED = lazy(rb"\s*[<\"]")
_KERNEL = lazy(rb"^(?![ \t]*#)[^\n]*\b(?:__)?kernel\b", re.M)  # outside directives (`#define KERNEL(x) kernel`)
_MIN_NAME = 3  # shorter words are locals and parameters (`x`, `i0`) far more often than not
_MAX_NAMES_SHOWN = 3


class Fragment:
    """What a file's inferred program adds before it."""

    __slots__ = ("prelude", "direct", "note")
    prelude: tuple[Path, ...]  # in the order the program reads them
    direct: dict[Path, tuple[str, ...]]  # the sources it uses directly, with the names
    note: tuple[str, int, int] | None  # CL007: message and the span of the first such use

    __match_args__ = ("prelude", "direct", "note")

    def __init__(
        self,
        prelude: tuple[Path, ...],
        direct: dict[Path, tuple[str, ...]],
        note: tuple[str, int, int] | None,
    ) -> None:
        self.prelude = prelude
        self.direct = direct
        self.note = note

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"prelude={self.prelude!r}, " f"direct={self.direct!r}, "
                f"note={self.note!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.prelude, self.direct, self.note) == (other.prelude, other.direct, other.note)

    def __hash__(self) -> int:
        return hash((self.prelude, self.direct, self.note))


@cache
def _known() -> frozenset[str]:
    """Names the compiler provides: never a reason to pull a sibling in."""
    from cllint.analysis.catalogue import catalogue

    c = catalogue()
    return frozenset(c.functions) | frozenset(c.types) | frozenset(c.constants)


def fragments(sources: Mapping[Path, bytes], wanted: list[Path], idx: dict[Path, FileIndex]) -> dict[Path, Fragment]:
    """Each wanted file's inferred prelude (files without one are left out); `idx`: the
    sources' indexes (those that are OpenCL C)."""
    providers: dict[str, list[Path]] = {}
    for path, fi in idx.items():
        for name in fi.defines:
            providers.setdefault(name, []).append(path)
    # each source's pasted parts as one pattern: a name is tested against a source at C speed
    pasters = [(path, re.compile("|".join(map(re.escape, sorted(fi.pastes))))) for path, fi in idx.items() if fi.pastes]

    pasted: dict[str, list[Path]] = {}  # one answer a name: most names recur in every file of a folder

    def pasted_by(name: str) -> list[Path]:
        """Sources whose macros could paste `name` (`cdouble_new` from `TPROOT##_new`)."""
        got = pasted.get(name)
        if got is None:
            got = pasted[name] = [path for path, parts in pasters if parts.search(name)]
        return got
    known = _known()
    direct: dict[Path, dict[Path, list[str]]] = {}
    kernels: dict[Path, bool] = {}

    def has_kernel(path: Path) -> bool:
        """Whether the source defines a kernel (a program of its own, whose macros are its own
        configuration: oneDNN's kernel folder), not a library its folder's kernels share."""
        if path not in kernels:
            from cllint.analysis.preprocessor.directives import blank_comments

            kernels[path] = _KERNEL.search(blank_comments(sources[path])) is not None
        return kernels[path]

    included: set[str] = set()

    def is_piece(path: Path) -> bool:
        """A source with no kernel that another source `#include`s (by its file name)."""
        if not included:
            included.add("")  # (read once)
            for data in sources.values():
                for line in _INCLUDE.findall(data):
                    included.update(os.path.basename(n.decode(errors="replace")) for n in _FILE_NAME.findall(line))
        return path.name in included and not has_kernel(path)

    def uses_of(f: Path) -> dict[Path, list[str]]:
        if f not in direct:
            fi = idx[f]
            lines = _INCLUDE.findall(sources[f])
            found: dict[Path, list[str]] = {}
            if any(not _QUOTED.match(line) for line in lines):
                direct[f] = {}  # a computed include (`#include M2S(PATH/x.cl)`): its sources are its own
                return direct[f]
            included = {os.path.basename(n.decode(errors="replace")) for line in lines for n in _FILE_NAME.findall(line)}
            for name in sorted(fi.uses - fi.defines - fi.locals - known):
                if len(name) < _MIN_NAME:
                    continue
                ps = providers.get(name)
                if ps is None:
                    ps = pasted_by(name) if pasters else []
                others = [p for p in ps if p != f]
                if len(others) > 1 and ps is providers.get(name) and is_piece(f):
                    # a library piece (no kernel, included by another source: gpuowl's fft4.cl) is
                    # joined with the kernel-less source beside it; a kernel file or a unit of its
                    # own (libclc's atom_max.cl) is a program its build reads alone
                    others = [p for p in others if p.parent == f.parent and not has_kernel(p)]
                if len(others) == 1:
                    found.setdefault(others[0], []).append(name)
            direct[f] = {s: names for s, names in found.items()
                         if s.name not in included and not (idx[s].definitions & fi.definitions)}
        return direct[f]

    out: dict[Path, Fragment] = {}
    for f in wanted:
        if f not in idx:
            continue
        uses = uses_of(f)
        if not uses:
            continue
        order: list[Path] = []
        seen = {f}

        def visit(s: Path) -> None:  # dependencies first; a cycle ends where it began
            seen.add(s)
            for t in sorted(uses_of(s)):
                if t not in seen:
                    visit(t)
            order.append(s)

        for s in sorted(uses):
            if s not in seen:
                visit(s)
        out[f] = Fragment(tuple(order), {s: tuple(n) for s, n in uses.items()}, _note(f, sources[f], uses))
    return out


def _note(f: Path, data: bytes, uses: dict[Path, list[str]]) -> tuple[str, int, int] | None:
    parts = []
    first: tuple[int, int] | None = None
    for s, names in sorted(uses.items(), key=lambda kv: -len(kv[1])):
        shown = ", ".join(f"'{n}'" for n in names[:_MAX_NAMES_SHOWN])
        more = f" and {len(names) - _MAX_NAMES_SHOWN} more" if len(names) > _MAX_NAMES_SHOWN else ""
        parts.append(f"{len(names)} name{'s' if len(names) != 1 else ''} from {_relative(s, f)} ({shown}{more})")
        for n in names:
            m = re.search(rb"(?<![\w])" + re.escape(n.encode()) + rb"(?![\w])", data)
            if m and (first is None or m.start() < first[0]):
                first = (m.start(), m.end())
    if first is None:
        return None
    return (f"uses {'; '.join(parts)}: read as one program, that source first", *first)


def _relative(s: Path, f: Path) -> str:
    try:
        return os.path.relpath(s, f.parent)
    except ValueError:
        return str(s)
