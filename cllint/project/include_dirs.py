"""Include folders a build passes (`-I`) that nothing told cllint: inferred from the workspace.

An `#include` that resolves neither beside the including file nor on the configured paths is
looked up among the workspace's files by its path: when exactly one file ends with it, the
folder that makes it resolve is added to the file's include paths (as the build's `-I` would
be). `<pyopencl-*.h>` headers come from the installed pyopencl package (its `cl` folder, which
pyopencl puts on the path of every program it builds) when the workspace has none.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Mapping
from functools import cache
from pathlib import Path, PurePosixPath
from cllint.analysis.lazy_re import lazy

HEADER_SUFFIXES = frozenset({".h", ".hh", ".hpp", ".inc", ".clh", ".cl", ".ocl", ".opencl", ".cuh"})
_INCLUDE = lazy(rb"^[ \t]*#[ \t]*include[ \t]*([<\"])([^>\"\n]+)[>\"]", re.M)
_MAX_HEADER_BYTES = 4 * 1024 * 1024


def by_name(files: Iterable[Path]) -> dict[str, list[Path]]:
    out: dict[str, list[Path]] = {}
    for p in files:
        if p.suffix.lower() in HEADER_SUFFIXES:
            out.setdefault(p.name, []).append(p)
    return out


@cache
def pyopencl_include_dir() -> Path | None:
    """The installed pyopencl's kernel headers (found without importing pyopencl)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("pyopencl")
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    for location in spec.submodule_search_locations:
        folder = Path(location) / "cl"
        if folder.is_dir():
            return folder
    return None


def _found(name: str, angled: bool, including: Path, paths: list[Path]) -> bool:
    folders = ([] if angled else [including.parent]) + paths
    return any((f / name).is_file() for f in folders)


def _workspace_folder(name: str, named: Mapping[str, list[Path]], including: Path) -> Path | None:
    """The one folder of the workspace that makes `name` resolve; when several do, the one
    nearest above the including file (a host running in a program's folder builds its
    `kernel/` sources there: benchmark suites give every program its own `main.h`)."""
    parts = PurePosixPath(name).parts
    if PurePosixPath(name).is_absolute():
        return None
    lead = 0
    while lead < len(parts) and parts[lead] in ("..", "."):
        lead += 1
    up = parts[:lead].count("..")
    parts = parts[lead:]
    if not parts or any(p in ("..", ".") for p in parts):
        return None
    if up:  # `<../Lib/CL/common.cl>` with the host's working folder on the path (`-I .`)
        base = _workspace_folder("/".join(parts), named, including)
        return None if base is None else _folder_below(base, up, including)
    folders = []
    for hit in named.get(parts[-1], ()):
        if tuple(hit.parts[-len(parts):]) == parts:
            folder = hit
            for _ in parts:
                folder = folder.parent
            folders.append(folder)
    if len(folders) <= 1:
        return folders[0] if folders else None
    above = [f for f in folders if f in including.parents]
    if not above:  # the one sharing the longest path with the includer's folder (PipeCNN's
        # `project_intel/device/RTL/rtl_lib.h` for `project_intel/device/conv_pipe.cl`, not
        # `yolo/device/RTL/`): its build's `-I`; two equally near, neither
        return _unique_max(folders, lambda f: _shared(f, including.parent))
    return _unique_max(above, lambda f: len(f.parts))


def _shared(a: Path, b: Path) -> int:
    n = 0
    for x, y in zip(a.parts, b.parts):
        if x != y:
            break
        n += 1
    return n


def _unique_max(folders: list[Path], key: Callable[[Path], int]) -> Path | None:
    best = max(folders, key=key)
    return best if sum(key(f) == key(best) for f in folders) == 1 else None


def _folder_below(base: Path, up: int, including: Path) -> Path | None:
    """A folder `up` levels below `base` (that `..` climbs back from): the including file's own
    ancestor there when it lies under `base`, else the first such folder by name."""
    for folder in including.parents:
        if len(folder.parts) == len(base.parts) + up and folder.parts[:len(base.parts)] == base.parts:
            return folder
    level = [base]
    for _ in range(up):
        try:
            level = sorted(c for f in level for c in f.iterdir() if c.is_dir())[:64]
        except OSError:
            return None
    return level[0] if level else None


def inferred_dirs(sources: Mapping[Path, bytes], named: Mapping[str, list[Path]],
                  paths: Iterable[Path]) -> dict[Path, tuple[str, ...]]:
    """Per source, the folders to add to its include paths (none: left out)."""
    base = [Path(p) for p in paths]
    out: dict[Path, tuple[str, ...]] = {}
    headers: dict[Path, bytes | None] = {}  # each header read once, whoever includes it
    for source, data in sources.items():
        if b"include" not in data:
            continue
        added: list[Path] = []
        todo: list[tuple[Path, bytes]] = [(source, data)]
        seen: set[Path] = {source}
        while todo:
            including, text = todo.pop()
            for quote, raw in _INCLUDE.findall(text):
                name = raw.decode("utf-8", "replace").strip()
                angled = quote == b"<"
                if _found(name, angled, including, base + added):
                    target = next(f / name for f in ([] if angled else [including.parent]) + base + added
                                  if (f / name).is_file())
                else:
                    folder = _workspace_folder(name, named, including)
                    if folder is None and name.startswith("pyopencl-"):
                        folder = pyopencl_include_dir()
                        if folder is not None and not (folder / name).is_file():
                            folder = None
                    if folder is None:
                        continue
                    added.append(folder)
                    target = folder / name
                target = Path(os.path.normpath(target))
                if target in seen:
                    continue
                seen.add(target)
                if target not in headers:
                    try:
                        headers[target] = target.read_bytes() if target.stat().st_size <= _MAX_HEADER_BYTES else None
                    except OSError:
                        headers[target] = None
                if headers[target] is not None:
                    todo.append((target, headers[target]))
        if added:
            out[source] = tuple(dict.fromkeys(str(f) for f in added))
    return out
