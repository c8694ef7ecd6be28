"""Lints files for `cllint check`: per-file settings, a content-hash cache, and a
process pool so that files are linted on all cores."""

from __future__ import annotations

import hashlib
import os
import pickle
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from cllint import __version__
from cllint.analysis.diagnostics import Applicability, Diagnostic
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse
from cllint.includes import FileIncludeResolver

CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cllint" / "check"
MAX_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class Job:
    path: str  # as the user named it
    source: bytes
    options: LintOptions
    use_cache: bool


def _key(job: Job) -> str:
    h = hashlib.sha256()
    h.update(__version__.encode())
    h.update(repr(job.options).encode())
    h.update(job.path.encode())
    h.update(job.source)
    # Included headers change results too: key on the include folders' header mtimes.
    for folder in (Path(job.path).parent, *map(Path, job.options.include_paths)):
        h.update(_folder_stamp(folder))
    return h.hexdigest()


_STAMPS: dict[Path, bytes] = {}


def _folder_stamp(folder: Path) -> bytes:
    """Names and mtimes of a folder's headers, once per folder per process (a folder of
    1,000 kernels would otherwise be listed once per file)."""
    if folder not in _STAMPS:
        h = hashlib.sha256()
        try:
            for p in sorted(folder.iterdir()):
                if p.suffix in (".h", ".clh", ".hpp", ".inc"):
                    h.update(f"{p.name}:{p.stat().st_mtime_ns}".encode())
        except OSError:
            pass
        _STAMPS[folder] = h.digest()
    return _STAMPS[folder]


def lint_source(path: str, source: bytes, options: LintOptions) -> list[Diagnostic]:
    resolver = FileIncludeResolver(options.include_paths)
    return lint_tree(path, source, parse(source), options, include_resolver=resolver)


def run_job(job: Job) -> list[Diagnostic]:
    if job.use_cache:
        entry = CACHE_DIR / _key(job)
        try:
            return pickle.loads(entry.read_bytes())
        except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError):
            pass
    diagnostics = lint_source(job.path, job.source, job.options)
    if job.use_cache:
        try:
            CACHE_DIR.mkdir(parents=True, exist_ok=True)
            tmp = entry.with_suffix(f".{os.getpid()}.tmp")
            tmp.write_bytes(pickle.dumps(diagnostics))
            tmp.replace(entry)
        except OSError:
            pass  # a read-only cache costs speed, never results
    return diagnostics


def run_all(jobs: list[Job], progress: Callable[[int, int], None] | None = None) -> list[list[Diagnostic]]:
    """Results in job order. Small batches stay in-process (a pool costs ~100 ms to start)."""
    workers = min(os.cpu_count() or 1, max(1, len(jobs) // 8))
    if workers <= 1:
        out = []
        for i, job in enumerate(jobs):
            out.append(run_job(job))
            if progress:
                progress(i + 1, len(jobs))
        return out
    results: list[list[Diagnostic]] = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for i, res in enumerate(pool.map(run_job, jobs, chunksize=8)):
            results.append(res)
            if progress:
                progress(i + 1, len(jobs))
    return results


def apply_fixes(source: bytes, diagnostics: list[Diagnostic], unsafe: bool) -> tuple[bytes, int]:
    """Applies non-overlapping fixes (SAFE, and UNSAFE when asked), last first."""
    allowed = {Applicability.SAFE} | ({Applicability.UNSAFE} if unsafe else set())
    fixes = [d.fix for d in diagnostics if d.fix and d.fix.applicability in allowed and d.fix.edits]
    fixes.sort(key=lambda f: min(e.span.start for e in f.edits), reverse=True)
    applied = 0
    limit = len(source) + 1
    for fix in fixes:
        edits = sorted(fix.edits, key=lambda e: e.span.start, reverse=True)
        if max(e.span.end for e in edits) > limit:
            continue  # overlaps a fix applied already; the next run picks it up
        for e in edits:
            source = source[: e.span.start] + e.replacement.encode() + source[e.span.end :]
        limit = min(e.span.start for e in edits)
        applied += 1
    return source, applied
