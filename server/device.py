"""Runner glue for the language server: device builds and runs as blocking jobs for a small
thread pool (each job waits on the runner's worker process, so the event loop and the Host
worker never do), and their results as the JSON the editor extensions display.

Contract (server/handlers.py registers these; editors/vscode and editors/nvim call them):
    cllint.listDevices []               -> [{index, platform, name, type, version, opencl_c_version, selector, oclgrind}]
    cllint.selectDevice [selector]      -> {ok, device: selector | None}  (the session's device)
    cllint.buildOnDevice [uri]          -> BuildResult JSON (`cllint.build` is an alias)
    cllint.runKernel [uri, kernel]      -> RunResult JSON, plus `history` (see run_job)
    cllint.listRuns [uri?, kernel?]     -> {ok, root, file, runs: [entry + compared], lines: [text], warnings}
    notification cllint/runRecorded     <- {uri, kernel, title, ok, median_ms, change, slower, output_changed, error}
Every run (on save, from the lens) is kept in .cllint/runs.jsonl (server/runner/history.py) and
compared with the previous run of the same kernel, launch and device: CL920 / CL921 at the kernel's
name until the next edit, the ▶ Run lens's title says the last result.
Errors come back as {ok: false, error, hint}. Diagnostics in results are objects
{code, severity, message, range (LSP), uri, source}.
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lsprotocol import types

from cllint.analysis.diagnostics import Diagnostic
from cllint.analysis.target import Target, TargetError
from cllint.server import convert

log = logging.getLogger("cllint.server")
_DEVICE_TARGET = re.compile(r"^device:(\d+)$")
_RUN_ANNOTATION = re.compile(r"^\s*//\s*cllint-run:", re.MULTILINE)
_KERNEL_AFTER = re.compile(r"(?:__kernel|\bkernel)\b[^;{}()]*?\b([A-Za-z_]\w*)\s*\(")


@dataclass(frozen=True)
class Job:
    """What one build or run needs; plain data, so it can cross to the pool."""

    path: str
    device: str | None
    std: str | None = None
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()
    timeout_s: float = 60.0
    encoding: str = convert.UTF16


def selector(value: str | None) -> str | None:
    """`device:N` (the form the static target takes) is device N to the runner."""
    if not value or not value.strip():
        return None
    m = _DEVICE_TARGET.match(value.strip())
    return m.group(1) if m else value.strip()


# -- JSON ---------------------------------------------------------------------------------


def device_json(d: Any) -> dict:
    return {"index": d.index, "platform": d.platform, "name": d.name, "type": d.type, "version": d.version,
            "opencl_c_version": d.opencl_c_version, "selector": str(d.index), "oclgrind": d.oclgrind}


def error_json(exc: BaseException) -> dict:
    return {"ok": False, "error": getattr(exc, "message", None) or str(exc), "hint": getattr(exc, "hint", "")}


def _range_json(r: types.Range) -> dict:
    return {"start": {"line": r.start.line, "character": r.start.character},
            "end": {"line": r.end.line, "character": r.end.character}}


class _Indexes:
    """LineIndex per file on disk, for runner spans (byte offsets into the files as built)."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._cache: dict[str, convert.LineIndex | None] = {}

    def __call__(self, file: str) -> convert.LineIndex | None:
        if file not in self._cache:
            try:
                self._cache[file] = convert.LineIndex(Path(file).read_bytes(), self.encoding)
            except OSError:
                self._cache[file] = None
        return self._cache[file]


def convert_diagnostics(diags: tuple[Diagnostic, ...], encoding: str) -> list[tuple[str, types.Diagnostic]]:
    """(uri, LSP diagnostic) for each runner diagnostic, notes' locations as file URIs."""
    indexes = _Indexes(encoding)
    out = []
    for d in diags:
        index = indexes(d.span.file) or convert.LineIndex(b"", encoding)
        lsp = convert.to_lsp_diagnostic(d, index, indexes)
        for rel in lsp.related_information or ():
            if not rel.location.uri.startswith("file:"):
                rel.location.uri = Path(rel.location.uri).as_uri()
        out.append((Path(d.span.file).as_uri(), lsp))
    return out


def diagnostic_json(uri: str, d: types.Diagnostic) -> dict:
    sev = {1: "error", 2: "warning", 3: "info", 4: "hint"}.get(int(d.severity or 2), "warning")
    return {"code": d.code, "severity": sev, "message": d.message, "range": _range_json(d.range),
            "uri": uri, "source": d.source}


# -- jobs (blocking; run in DeviceSession.pool) --------------------------------------------


def _options(job: Job) -> Any:
    from cllint.server.runner import BuildOptions

    return BuildOptions(std=job.std, include_dirs=job.include_dirs, defines=job.defines)


def list_devices_job() -> list[dict]:
    from cllint.server.runner import list_devices

    return [device_json(d) for d in list_devices()]


def build_job(job: Job) -> tuple[dict, list[tuple[str, types.Diagnostic]]]:
    """(BuildResult JSON, (uri, LSP diagnostic) pairs)."""
    from cllint.server.runner import build, to_json

    r = build(job.path, job.device, _options(job), timeout_s=job.timeout_s)
    lsp = convert_diagnostics(r.diagnostics, job.encoding)
    out = to_json(r)
    out.update(device=device_json(r.device), diagnostics=[diagnostic_json(u, d) for u, d in lsp])
    return out, lsp


@dataclass(frozen=True)
class RunOutcome:
    """What a run on save or from the lens gives the session: the reply, CL920/CL921 for the
    kernel's file, the lens title and the cllint/runRecorded notification."""

    result: dict
    diagnostics: list[types.Diagnostic]
    title: str
    notice: dict


def run_job(job: Job, kernel: str, via: str = "lens") -> RunOutcome:
    """Run, record in the history, compare with the previous run. A worker that hangs or
    crashes is recorded as a failure (no time) and answered as an error."""
    from cllint.server.runner import WorkerStopped, find_device, history, launch_for, report, run, to_json

    source = Path(job.path)
    root = history.workspace_root(source)
    digest = history.digest_of(source)  # before the run: a save meanwhile must not be credited
    try:
        r = run(job.path, kernel, job.device, options=_options(job), timeout_s=job.timeout_s)
    except WorkerStopped as exc:
        out = error_json(exc)
        try:
            e = history.entry(source, kernel, root, via, error=exc.message, device=find_device(job.device),
                              requested=launch_for(source, kernel), source_digest=digest)
        except Exception:  # the device or the description cannot be read again: nothing to record
            return RunOutcome(out, [], "▶ Run · ✗ failed", _notice(job, kernel, "▶ Run · ✗ failed", out, None))
        rec = history.record(root, e)
        title = report.lens_title(report.Compared(e, None, None, None))
        return RunOutcome({**out, "history": _history_json(rec, title)}, [], title, _notice(job, kernel, title, out, rec))
    rec = history.record(root, history.entry(source, kernel, root, via, result=r, source_digest=digest))
    title = report.lens_title(report.Compared(rec.entry, rec.previous, rec.timing, rec.output))
    own = [d for u, d in convert_diagnostics(tuple(history.diagnostics(rec, source)), job.encoding)]
    out = to_json(r)
    out.pop("dumps", None)
    for o in out.get("outputs") or []:
        o.pop("sample", None)  # the history keeps it; the editor shows the summary
    out.update(device=device_json(r.device),
               diagnostics=[diagnostic_json(u, d) for u, d in convert_diagnostics(r.diagnostics, job.encoding)],
               history=_history_json(rec, title))
    return RunOutcome(out, own, title, _notice(job, kernel, title, out, rec))


def _history_json(rec: Any, title: str) -> dict:
    prev = rec.previous
    return {"file": str(rec.path), "title": title, "warnings": list(rec.warnings),
            "previous": None if prev is None else {"time": prev.get("time"), "median_ms": prev.get("median_ms")},
            "change": rec.timing.short() if rec.timing else None, "slower": bool(rec.timing and rec.timing.slower),
            "output_changed": rec.output.message() if rec.output else None}


def _notice(job: Job, kernel: str, title: str, out: dict, rec: Any) -> dict:
    t = out.get("timing") or {}
    return {"uri": Path(job.path).as_uri(), "kernel": kernel, "title": title, "ok": bool(out.get("ok")),
            "median_ms": t.get("median_ms"), "error": out.get("error"),
            "change": rec.timing.short() if rec is not None and rec.timing else None,
            "slower": bool(rec is not None and rec.timing and rec.timing.slower),
            "output_changed": rec.output.message() if rec is not None and rec.output else None}


def lens_titles_job(path: str) -> dict[str, str]:
    """The lens title of each kernel of `path` from the history (the last run of each)."""
    from cllint.server.runner import history, report

    source = Path(path)
    root = history.workspace_root(source)
    file = history.relative(source, root)
    last: dict[str, report.Compared] = {}
    for c in report.compared(history.read(root, file).entries):
        last[c.entry["kernel"]] = c
    return {k: report.lens_title(c) for k, c in last.items()}


def list_runs_job(path: str | None, kernel: str | None) -> dict:
    from cllint.server.runner import history, report

    root = history.workspace_root(Path(path) if path else Path.cwd())
    file = history.relative(Path(path), root) if path else None
    found = history.read(root, file, kernel)
    return {"ok": True, "root": str(root), "file": file, "warnings": found.warnings,
            "runs": report.runs_json(found, file, kernel), "lines": report.lines(found, file, kernel)}


def profile_target_job(index: int) -> Target:
    from cllint.server.runner import RunnerError, device_profile

    try:
        p = device_profile(str(index))
    except RunnerError as exc:
        raise TargetError(f"target 'device:{index}': {exc.message}") from None
    return Target.from_device(p["opencl_c_version"], p["features"], p["extensions"], name=f"device:{index}")


def annotated_kernels(text: str) -> list[str]:
    """Kernels with a `// cllint-run:` comment block right above them (run on save)."""
    names = []
    for m in _RUN_ANNOTATION.finditer(text):
        rest = text[m.end():]
        # skip the rest of the comment block, then the kernel must follow
        body = re.sub(r"\A(?:[^\n]*\n)(?:\s*//[^\n]*\n)*", "", rest, count=1)
        k = _KERNEL_AFTER.match(body.lstrip())
        if k and k.group(1) not in names:
            names.append(k.group(1))
    return names


# -- summaries (window/showMessage) ----------------------------------------------------------


def _first_diag(result: dict) -> str:
    diags = result.get("diagnostics") or []
    if not diags:
        return ""
    d = diags[0]
    return f": {d['code']} line {d['range']['start']['line'] + 1}: {d['message']}" + \
        (f" (+{len(diags) - 1} more)" if len(diags) > 1 else "")


def summary(op: str, result: dict, kernel: str | None = None) -> tuple[types.MessageType, str]:
    what = f"run '{kernel}'" if kernel else "device build"
    if "error" in result:
        hint = f" ({result['hint']})" if result.get("hint") else ""
        return types.MessageType.Error, f"cllint {what}: {result['error']}{hint}"
    dev = (result.get("device") or {}).get("name", "device")
    if op == "build":
        if result.get("ok"):
            return types.MessageType.Info, f"cllint: built on {dev} in {result.get('seconds', 0):.2f} s" + _first_diag(result)
        return types.MessageType.Error, f"cllint: build failed on {dev}" + _first_diag(result)
    if not result.get("ok"):
        return types.MessageType.Error, f"cllint: '{kernel}' failed on {dev}" + _first_diag(result)
    parts = [f"cllint: '{kernel}' on {dev}"]
    if t := result.get("timing"):
        parts.append(f"median {t['median_ms']:.3g} ms")
    for o in (result.get("outputs") or [])[:2]:
        first = ", ".join(f"{v:g}" for v in o["first"][:4])
        parts.append(f"{o['name']}=[{first}{', …' if o['count'] > 4 else ''}]")
    return types.MessageType.Info, "  ".join(parts)


# -- per-session state ---------------------------------------------------------------------


@dataclass
class DeviceSession:
    selected: str | None = None  # cllint.selectDevice; used when the `device` setting is empty
    trusted: bool = True  # initializationOptions.trusted / setting trustedWorkspace
    # device diagnostics from the last build on save, per uri; dropped on the next edit or save
    build_diags: dict[str, tuple[int, list[types.Diagnostic]]] = field(default_factory=dict)  # (generation, diags)
    # CL920 / CL921 of the last run of each kernel, per uri; dropped on the next edit
    run_diags: dict[str, dict[str, list[types.Diagnostic]]] = field(default_factory=dict)
    generation: int = 0
    # the ▶ Run lens's title per file path and kernel (read from the history once per file)
    titles: dict[str, dict[str, str]] = field(default_factory=dict)
    # one run at a time per file: a save during a run queues one more, never a pile
    running: set[str] = field(default_factory=set)
    queued: set[str] = field(default_factory=set)
    locks: dict[str, Any] = field(default_factory=dict)  # uri -> asyncio.Lock (made on the event loop)
    pool: ThreadPoolExecutor = field(default_factory=lambda: ThreadPoolExecutor(2, thread_name_prefix="cllint-device"))
    _targets: dict[int, Target | Exception] = field(default_factory=dict)
    _fetching: set[int] = field(default_factory=set)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def device_reader(self, on_ready: Callable[[], None]) -> Callable[[int], Target]:
        """For `build_target`: `device:N` from the cache; the first time, read the device in the
        pool, answer a CL1.2 stand-in meanwhile and call `on_ready` (any thread) once it is known."""

        def read(index: int) -> Target:
            with self._lock:
                found = self._targets.get(index)
                start = found is None and index not in self._fetching
                if start:
                    self._fetching.add(index)
            if isinstance(found, Target):
                return found
            if isinstance(found, Exception):
                raise found
            if start:
                self.pool.submit(self._fetch, index).add_done_callback(lambda _f: on_ready())
            return Target.preset("CL1.2")

        return read

    def _fetch(self, index: int) -> None:
        try:
            value: Target | Exception = profile_target_job(index)
        except Exception as exc:  # no pyopencl, no such device: the reader raises it
            value = exc if isinstance(exc, TargetError) else TargetError(f"target 'device:{index}': {exc}")
        with self._lock:
            self._targets[index] = value
            self._fetching.discard(index)

    def extra(self, uri: str) -> tuple[int, list[types.Diagnostic]]:
        """The device diagnostics shown beside the static ones: the build on save's, then each
        kernel's CL920 / CL921, and a generation that changes whenever they do."""
        gen, diags = self.build_diags.get(uri, (0, []))
        runs = [d for ds in self.run_diags.get(uri, {}).values() for d in ds]
        return (self.generation if runs else gen), diags + runs

    def drop(self, uri: str) -> None:
        """An edit: the device's findings no longer describe the text."""
        self.build_diags.pop(uri, None)
        if self.run_diags.pop(uri, None):
            self.generation += 1

    def submit(self, fn: Callable[..., Any], *args: Any) -> Future:
        return self.pool.submit(fn, *args)
