"""Lints files for `cllint check`: per-file settings, a content-hash cache, and a
process pool so that files are linted on all cores."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

from cllint import __version__
from cllint.analysis.diagnostics import Applicability, Diagnostic
from cllint.analysis.digest import blake2b
from cllint.analysis.embedded.languages import host_language
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse
from cllint.includes import FileIncludeResolver, stamp_of

CACHE_DIR = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cllint" / "check"
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


def options_key(options: LintOptions) -> str:
    """A stable text for the options: `repr` is not, since the target's frozensets
    iterate in a per-process order (string hashing is randomised)."""
    t = options.target
    return repr((t.name, str(t.version), sorted(t.features), sorted(t.extensions), options.select,
                 options.ignore, options.extend_select, options.defines, options.include_paths,
                 options.mode, options.std, options.preview, options.budget, options.prelude, options.options_known,
                 options.program_note, options.host_macros, options.host_features))


@cache
def _code_stamp() -> bytes:
    """The analysis code and the compiled parser as installed (names, sizes, mtimes): a
    reinstall from a newer checkout under the same version must not reuse old results."""
    import cllint.analysis
    import cllint.grammar

    h = blake2b(digest_size=32)
    for package in (cllint.analysis, cllint.grammar):
        root = Path(package.__file__).parent
        for p in sorted(root.rglob("*")):
            if p.suffix in (".py", ".so", ".json", ".scm") and "__pycache__" not in p.parts:
                try:
                    st = p.stat()
                except OSError:
                    continue
                h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.digest()


def _key(job: Job) -> str:
    """The file's content, options and the installed code. What its includes read is not in
    the key but in the entry, checked on every hit (`_cached`)."""
    h = blake2b(digest_size=32)
    h.update(__version__.encode())
    h.update(_code_stamp())
    h.update(options_key(job.options).encode())
    h.update(job.path.encode())
    h.update(job.source)
    return h.hexdigest()


# A file changed within this many seconds may change again within its timestamp's
# granularity without its stamp changing: results that read one are not stored.
RACY_SECONDS = 2.0


def lint_source(path: str, source: bytes, options: LintOptions,
                resolver: FileIncludeResolver | None = None) -> list[Diagnostic]:
    resolver = resolver or FileIncludeResolver(options.include_paths, options.prelude, options.host_macros)
    if host_language(path) is not None:  # kernels inside Python or C/C++ host code
        from cllint.analysis.embedded import lint_host  # imported for host files only

        return lint_host(path, source, options, include_resolver=resolver)
    return lint_tree(path, source, parse(source), options, include_resolver=resolver)


def _cached(job: Job) -> list[Diagnostic] | None:
    """A stored result whose every include probe (header read, or path found absent)
    still stamps the same; any other entry is a miss."""
    if not job.use_cache:
        return None
    import pickle  # only with the cache: ~2 ms of start-up otherwise

    try:
        diagnostics, probes = pickle.loads((CACHE_DIR / _key(job)).read_bytes())
    except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError, TypeError):
        return None
    if any(stamp_of(Path(p)) != s for p, s in probes.items()):
        return None
    return diagnostics


def run_job(job: Job) -> list[Diagnostic]:
    hit = _cached(job)
    if hit is not None:
        return hit
    resolver = FileIncludeResolver(job.options.include_paths, job.options.prelude, job.options.host_macros)
    diagnostics = lint_source(job.path, job.source, job.options, resolver)
    now = time.time_ns()
    racy = any(s is not None and now - s[0] < RACY_SECONDS * 1e9 for s in resolver.probes.values())
    cut_short = any(d.code == "CL091" for d in diagnostics)  # a budget's result depends on the load
    if job.use_cache and not racy and not cut_short:
        try:
            CACHE_DIR.mkdir(parents=True, exist_ok=True)
            entry = CACHE_DIR / _key(job)
            tmp = entry.with_suffix(f".{os.getpid()}.tmp")
            import pickle

            tmp.write_bytes(pickle.dumps((diagnostics, resolver.probes)))
            tmp.replace(entry)
        except OSError:
            pass  # a read-only cache costs speed, never results
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
