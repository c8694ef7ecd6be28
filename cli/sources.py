"""Which files `cllint check` lints: files, folders (recursing), globs and stdin."""

from __future__ import annotations

import fnmatch
from pathlib import Path

from cllint.analysis.embedded.languages import host_language
from cllint.cli.main import UsageError

EXTENSIONS = (".cl", ".clh", ".ocl", ".opencl")
MAX_HOST_BYTES = 4 * 1024 * 1024  # host files searched in folders; larger ones are data
SKIP_DIRS = {".git", ".hg", ".svn", "node_modules", ".venv", "__pycache__", "build", ".cllint_cache"}


def has_magic(raw: str) -> bool:
    """`glob.has_magic`: whether `raw` holds a wildcard, without importing `glob` (its
    patterns compile at import, ~1 ms of every start-up) for the paths that are plain."""
    return "*" in raw or "?" in raw or "[" in raw


def discover(paths: list[str], exclude: list[str]) -> list[Path]:
    """Expands PATHS to a sorted, de-duplicated file list. Unknown paths are usage errors."""
    found: dict[Path, None] = {}
    for raw in paths:
        if has_magic(raw):
            import glob

            matches = [Path(p) for p in glob.glob(raw, recursive=True)]
        else:
            matches = [Path(raw)]
        if not matches:
            raise UsageError(f"{raw}: no such file or directory")
        for path in matches:
            if path.is_dir():
                for child in sorted(path.rglob("*")):
                    if not child.is_file() or _skipped(child, path):
                        continue
                    if child.suffix in EXTENSIONS or (host_language(str(child)) and _host_with_kernels(child)):
                        found[child] = None
            elif path.exists():
                found[path] = None  # named explicitly: lint whatever its extension
            else:
                raise UsageError(f"{raw}: no such file or directory")
    return [p for p in found if not _excluded(p, exclude)]


def _host_with_kernels(path: Path) -> bool:
    """Python that imports pyopencl, C/C++ that creates programs or marks a kernel."""
    from cllint.analysis.embedded.search import worth_searching  # host-language modules, only for host files

    try:
        with path.open("rb") as f:
            head = f.read(MAX_HOST_BYTES)
    except OSError:
        return False
    return worth_searching(str(path), head)


def _skipped(path: Path, root: Path) -> bool:
    return any(part in SKIP_DIRS for part in path.relative_to(root).parts[:-1])


def _excluded(path: Path, patterns: list[str]) -> bool:
    text = path.as_posix()
    return any(fnmatch.fnmatch(text, p) or fnmatch.fnmatch(path.name, p) for p in patterns)
