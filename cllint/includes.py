"""Reads `#include`d files for the analysis layer, which never touches the filesystem:
quoted includes search the including file's folder first, then `-I` paths; angled
includes search only `-I` paths."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

MAX_INCLUDE_BYTES = 16 * 1024 * 1024


Stamp = tuple[int, int, int] | None  # (mtime_ns, size, inode) of a file read; None: absent


def stamp_of(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_mtime_ns, st.st_size, st.st_ino) if path.is_file() else None


class FileIncludeResolver:
    def __init__(self, include_paths: Sequence[str | Path] = (), prelude: Sequence[str] = (),
                 host_macros: Sequence[str] = (), host_headers: Sequence[str] = ()):
        self.paths = [Path(p) for p in include_paths]
        self.host_macros = frozenset(host_macros)  # `-D` names the host passes, values unknown
        self.host_headers = frozenset(host_headers)  # `#include` names the host supplies (no CL002)
        # Sources the program reads before the file (analysis/preprocessor/view.py `with_prelude`).
        self.prelude = tuple(prelude)
        self._cache: dict[Path, bytes | None] = {}
        # Answers by request: a header included from the same file again (libclc's template
        # headers, hundreds of times a file) costs a dict look-up, not a Path per folder.
        self._answers: dict[tuple[str, bool, str], tuple[str, bytes] | None] = {}
        # Every path looked at, found or not, with its stamp when read: what a result that
        # used this resolver depends on (a header that appears later changes it too).
        self.probes: dict[str, Stamp] = {}

    def __call__(self, name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        key = (name, angled, "" if angled else including)  # an angled name does not depend on its includer
        if key in self._answers:
            return self._answers[key]
        found = None
        candidates = [] if angled else [Path(including).parent]
        for folder in [*candidates, *self.paths]:
            path = folder / name
            data = self._read(path)
            if data is not None:
                found = str(path), data
                break
        self._answers[key] = found
        return found

    def _read(self, path: Path) -> bytes | None:
        if path not in self._cache:
            self.probes[str(path)] = stamp_of(path)
            try:
                self._cache[path] = path.read_bytes() if path.is_file() and path.stat().st_size <= MAX_INCLUDE_BYTES else None
            except OSError:
                self._cache[path] = None
        return self._cache[path]
