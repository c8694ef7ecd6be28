"""Lints files for `cllint check`: per-file settings, a content-hash cache, and a
process pool so that files are linted on all cores."""

from __future__ import annotations

import os
from collections.abc import Callable

from cllint.analysis.diagnostics import Applicability, Diagnostic
from cllint.analysis.embedded.languages import host_language
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse
from cllint.includes import FileIncludeResolver
from cllint.results_cache import cache_dir, entry_key, load, store
# Kept here for callers that read them from the CLI's engine.
from cllint.results_cache import RACY_SECONDS, options_key  # noqa: F401
from cllint.results_cache import code_stamp as _code_stamp  # noqa: F401

CACHE_DIR = cache_dir("check")
MAX_BYTES = 64 * 1024 * 1024


class Job:
    __slots__ = ("path", "source", "options", "use_cache")
    path: str  # as the user named it
    source: bytes
    options: LintOptions
    use_cache: bool

    __match_args__ = ("path", "source", "options", "use_cache")

    def __init__(self, path: str, source: bytes, options: LintOptions, use_cache: bool) -> None:
        self.path = path
        self.source = source
        self.options = options
        self.use_cache = use_cache

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"path={self.path!r}, " f"source={self.source!r}, "
                f"options={self.options!r}, " f"use_cache={self.use_cache!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.path, self.source, self.options, self.use_cache)
        theirs = (other.path, other.source, other.options, other.use_cache)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.path, self.source, self.options, self.use_cache))


def _key(job: Job) -> str:
    """The file's content, options and the installed code. What its includes read is not in
    the key but in the entry, checked on every hit (cllint/results_cache.py)."""
    return entry_key(job.path, job.source, job.options)


def lint_source(path: str, source: bytes, options: LintOptions,
                resolver: FileIncludeResolver | None = None) -> list[Diagnostic]:
    resolver = resolver or FileIncludeResolver(options.include_paths, options.prelude, options.host_macros,
                                               options.host_headers)
    if host_language(path) is not None:  # kernels inside Python or C/C++ host code
        from cllint.analysis.embedded import lint_host  # imported for host files only

        return lint_host(path, source, options, include_resolver=resolver)
    return lint_tree(path, source, parse(source), options, include_resolver=resolver)


def _cached(job: Job) -> list[Diagnostic] | None:
    """A stored result whose every include probe (header read, or path found absent)
    still stamps the same; any other entry is a miss."""
    if not job.use_cache:
        return None
    got = load(CACHE_DIR, _key(job))
    return None if got is None else got[0]


def run_job(job: Job) -> list[Diagnostic]:
    hit = _cached(job)
    if hit is not None:
        return hit
    resolver = FileIncludeResolver(job.options.include_paths, job.options.prelude, job.options.host_macros,
                                   job.options.host_headers)
    diagnostics = lint_source(job.path, job.source, job.options, resolver)
    if job.use_cache:
        store(CACHE_DIR, _key(job), diagnostics, resolver.probes)
    return diagnostics


def run_all(jobs: list[Job], progress: Callable[[int, int], None] | None = None) -> list[list[Diagnostic]]:
    """Results in job order. Cache hits are read here; only misses go to the pool, and
    small batches stay in-process (a pool costs ~1 s to start: each worker imports cllint)."""
    results: list[list[Diagnostic] | None] = [_cached(job) for job in jobs]
    todo = [i for i, r in enumerate(results) if r is None]
    done = len(jobs) - len(todo)
    workers = min(os.cpu_count() or 1, max(1, len(todo) // 8))
    if workers <= 1:
        for i in todo:
            results[i] = run_job(jobs[i])
            done += 1
            if progress:
                progress(done, len(jobs))
    else:
        # Imported here: a pool (multiprocessing, logging, sockets) is ~10 ms of start-up
        # that one file, the pre-commit case, never uses.
        from concurrent.futures import ProcessPoolExecutor, as_completed

        # Largest first, in batches of about equal bytes: one 2 MB file met last would leave
        # the other workers idle while it runs (a long tail), and small files go in groups
        # so that the pool's per-task cost stays small.
        with ProcessPoolExecutor(max_workers=workers) as pool:
            futures = {pool.submit(_run_batch, [jobs[i] for i in batch]): batch
                       for batch in _batches(todo, jobs, workers)}
            for future in as_completed(futures):
                batch = futures[future]
                for i, res in zip(batch, future.result()):
                    results[i] = res
                done += len(batch)
                if progress:
                    progress(done, len(jobs))
    return [r if r is not None else [] for r in results]


def _run_batch(batch: list[Job]) -> list[list[Diagnostic]]:
    return [run_job(job) for job in batch]


def _batches(todo: list[int], jobs: list[Job], workers: int) -> list[list[int]]:
    """Job indices, largest source first, grouped so that no batch holds much more than
    1/(16 x workers) of all bytes: the tail left when a worker takes the last batch stays short."""
    order = sorted(todo, key=lambda i: len(jobs[i].source), reverse=True)
    limit = max(1, sum(len(jobs[i].source) for i in order) // (16 * workers))
    out: list[list[int]] = []
    current: list[int] = []
    size = 0
    for i in order:
        current.append(i)
        size += len(jobs[i].source)
        if size >= limit or len(current) >= 32:
            out.append(current)
            current, size = [], 0
    if current:
        out.append(current)
    return out


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
