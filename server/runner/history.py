"""The run history: one JSON object per kernel run, appended to `.cllint/runs.jsonl` in the
workspace root (the folder holding the project's configuration, else the source's folder).

    workspace_root(source) -> Path
    entry(source, kernel, root, via, result=..., error=...) -> Entry
    append(root, entry) -> Path         (creates .cllint/ and its .gitignore)
    read(root) -> History               (entries, and a warning per line it skipped)
    record(root, entry) -> Recorded     (append, then compare with the previous run)

The format is documented in docs/run-on-device.md ("Run history"). Whole buffers are never
stored: each shown buffer keeps its summary, a digest and a strided sample (worker.py).
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from cllint.analysis.diagnostics import Diagnostic, Severity, Span

from .changes import Entry, OutputChange, TimingChange, ms, output_change, timing_change
from .launch import Launch, kernel_name_span
from .results import DeviceInfo, RunResult

FORMAT = 1
DIR = ".cllint"
FILE = "runs.jsonl"
GITIGNORE = "# cllint's run history (cllint runs): local to this machine\n*\n"
_OUTPUT_KEYS = ("name", "dtype", "count", "min", "max", "mean", "nan", "inf", "digest", "stride", "sample")
_REQUIRED = {"time": str, "file": str, "kernel": str, "device": str, "ok": bool}


@dataclass(frozen=True)
class History:
    entries: list[Entry]
    warnings: list[str] = field(default_factory=list)

    def of(self, file: str | None = None, kernel: str | None = None) -> list[Entry]:
        return [e for e in self.entries
                if (file is None or e["file"] == file) and (kernel is None or e["kernel"] == kernel)]


@dataclass(frozen=True)
class Recorded:
    entry: Entry
    path: Path  # the runs.jsonl written (or that could not be written: see warnings)
    previous: Entry | None
    timing: TimingChange | None
    output: OutputChange | None
    warnings: tuple[str, ...] = ()


def workspace_root(source: Path) -> Path:
    """The folder of the configuration `cllint check` would read for `source` (a file or a
    folder), else the file's folder (the folder itself)."""
    from cllint.config import ConfigError, find_config

    source = Path(os.path.abspath(source))
    try:
        found = find_config(source)
    except ConfigError:  # an unreadable pyproject.toml that names cllint: still its folder
        found = None
    return found.parent if found is not None else source if source.is_dir() else source.parent


def runs_file(root: Path) -> Path:
    return root / DIR / FILE


def relative(source: Path, root: Path) -> str:
    source = Path(os.path.abspath(source))
    return source.relative_to(root).as_posix() if source.is_relative_to(root) else source.as_posix()


def digest_of(source: Path) -> str | None:
    try:
        return "sha256:" + hashlib.sha256(source.read_bytes()).hexdigest()
    except OSError:
        return None


def _device(dev: DeviceInfo | None, label: str | None) -> dict[str, str]:
    if dev is None:
        return {"device": label or "unknown device"}
    return {"device": dev.label(), "device_type": dev.type, "driver": dev.driver_version}


def entry(source: Path, kernel: str, root: Path, via: str, *, result: RunResult | None = None,
          error: str | None = None, device: DeviceInfo | None = None, device_label: str | None = None,
          requested: Launch | None = None, source_digest: str | None = None,
          now: datetime | None = None) -> Entry:
    """One history object: a finished run (`result`), or a failure (`error`: a hang, a crash, a
    launch the driver refused), which records what was asked and no time."""
    when = (now or datetime.now(timezone.utc)).isoformat(timespec="milliseconds")
    base: Entry = {"v": FORMAT, "time": when, "file": relative(source, root), "kernel": kernel, "via": via,
                   "source_digest": source_digest or digest_of(source)}
    ok = result is not None and result.ok and error is None
    if result is not None and result.global_size:
        base.update(_device(result.device, None))
        base["launch"] = {"global": list(result.global_size),
                          "local": list(result.local_size) if result.local_size else None,
                          "args": list(result.args)}
    else:
        base.update(_device(result.device if result else device, device_label))
        req = requested or Launch()
        base["launch"] = None
        base["requested"] = {"global": list(req.global_size) if req.global_size else None,
                             "local": list(req.local_size) if req.local_size else None,
                             "args": [f"{k}={v}" for k, v in req.args.items()]}
    t = result.timing if result is not None else None
    base.update(ok=ok, error=error if error is not None else _failure(result),
                iterations=t.iterations if t else 0,
                median_ms=t.median_ms if t else None, min_ms=t.min_ms if t else None,
                max_ms=t.max_ms if t else None, stdev_ms=t.stdev_ms if t else None)
    base["outputs"] = [{k: (list(v) if isinstance(v, tuple) else v) for k, v in
                        ((k, getattr(o, k)) for k in _OUTPUT_KEYS)} for o in (result.outputs if result else ())]
    return base


def _failure(result: RunResult | None) -> str | None:
    if result is None or result.ok:
        return None
    if not result.global_size:
        return "the program did not build"
    first = result.diagnostics[0] if result.diagnostics else None
    return f"{first.code} {first.message}" if first else "the run reported errors"


def key(e: Entry) -> str:
    """Runs compare when they ran the same kernel of the same file with the same launch on the
    same device (the source may differ: that is what is being compared)."""
    return json.dumps([e.get("file"), e.get("kernel"), e.get("device"), e.get("launch")], sort_keys=True)


def previous(entries: list[Entry], current: Entry) -> Entry | None:
    """The latest completed run with the same key in `entries`, other than `current` itself."""
    k = key(current)
    for e in reversed(entries):
        if e is not current and e.get("ok") and e.get("launch") is not None and key(e) == k:
            return e
    return None


def _valid(obj: Any) -> str | None:
    """Why a line is not an entry this version can use, or None."""
    if not isinstance(obj, dict):
        return "not a JSON object"
    for name, typ in _REQUIRED.items():
        if not isinstance(obj.get(name), typ):
            return f"'{name}' is missing or not a {typ.__name__}"
    if obj["ok"]:
        for name in ("median_ms", "min_ms", "max_ms"):
            if not isinstance(obj.get(name), (int, float)) or isinstance(obj.get(name), bool):
                return f"'{name}' is missing or not a number"
        if not isinstance(obj.get("outputs", []), list):
            return "'outputs' is not a list"
    return None


def _parse(line: str, where: str) -> tuple[Entry | None, str | None]:
    """(entry, None), or (None, why the line is skipped)."""
    try:
        obj = json.loads(line)
    except ValueError as exc:
        return None, f"{where}: skipped a line that is not JSON ({exc.msg})"
    why = _valid(obj)
    if why is None and int(obj.get("v", FORMAT)) > FORMAT:
        why = f"written by a newer cllint (format {obj.get('v')})"
    return (obj, None) if why is None else (None, f"{where}: skipped an entry: {why}")


def _needles(file: str | None, kernel: str | None) -> tuple[str, ...]:
    return tuple(json.dumps(v, ensure_ascii=False) for v in (file, kernel) if v is not None)


def _elsewhere(line: str, needles: tuple[str, ...]) -> bool:
    """A whole-looking object that cannot be about this file and kernel (it lacks them as JSON
    strings): passed over unparsed, as a long history holds many kernels' runs. A line cut
    short or garbled is still parsed, so that it is reported."""
    text = line.strip()
    return bool(needles) and text.startswith("{") and text.endswith("}") and not all(x in text for x in needles)


def read(root: Path, file: str | None = None, kernel: str | None = None) -> History:
    """Every usable entry (of `file` and `kernel`, when given), oldest first; a line that is not
    one (corrupt, hand-edited, from a newer cllint) is skipped with a warning naming its line."""
    path = runs_file(root)
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except FileNotFoundError:
        return History([])
    except OSError as exc:
        return History([], [f"cannot read {path}: {exc}"])
    needles = _needles(file, kernel)
    entries: list[Entry] = []
    warnings: list[str] = []
    for n, line in enumerate(lines, 1):
        if not line.strip() or _elsewhere(line, needles):
            continue
        obj, why = _parse(line, f"{path}:{n}")
        if obj is None:
            warnings.append(str(why))
        elif (file is None or obj["file"] == file) and (kernel is None or obj["kernel"] == kernel):
            entries.append(obj)
    return History(entries, warnings)


def _reversed_lines(path: Path, block: int = 1 << 16):
    """(k, text) of a file's lines, the last first (k = 1), read in blocks from the end."""
    with open(path, "rb") as f:
        end, rest, k = f.seek(0, os.SEEK_END), b"", 0
        while end > 0:
            start = max(0, end - block)
            f.seek(start)
            parts = (f.read(end - start) + rest).split(b"\n")
            end = start
            rest = parts.pop(0) if end > 0 else b""
            if k == 0 and parts and parts[-1] == b"":
                parts.pop()  # the newline that ends the file ends the last line
            for raw in reversed(parts):
                k += 1
                yield k, raw.decode("utf-8", errors="replace")


def _count_lines(path: Path) -> int:
    data = path.read_bytes()
    return data.count(b"\n") + (0 if data.endswith(b"\n") or not data else 1)


def find_previous(root: Path, current: Entry) -> tuple[Entry | None, list[str]]:
    """The previous run to compare `current` with, read from the end of the history: usually a
    few lines, however long the history is. Warnings name the unusable lines passed on the way."""
    path = runs_file(root)
    warnings: list[str] = []
    if not path.exists():
        return None, warnings
    needles = _needles(current.get("file"), current.get("kernel"))
    k = key(current)
    try:
        total = 0  # lines in the file, counted only to name a line that is skipped
        for k_from_end, line in _reversed_lines(path):
            if not line.strip() or _elsewhere(line, needles):
                continue
            obj, why = _parse(line, "")
            if obj is None:
                total = total or _count_lines(path)
                warnings.append(f"{path}:{total - k_from_end + 1}{why}")
            elif obj.get("ok") and obj.get("launch") is not None and key(obj) == k:
                return obj, warnings
    except OSError as exc:
        warnings.append(f"cannot read {path}: {exc}")
    return None, warnings


def append(root: Path, e: Entry) -> Path:
    """One line, written with one write to a file opened for appending (O_APPEND): runs from
    the editor and the command line at the same time never interleave their lines."""
    folder = root / DIR
    folder.mkdir(parents=True, exist_ok=True)
    ignore = folder / ".gitignore"
    if not ignore.exists():
        ignore.write_text(GITIGNORE)
    path = folder / FILE
    line = json.dumps(e, separators=(",", ":"), allow_nan=False) + "\n"
    with open(path, "a", encoding="utf-8") as f:
        if f.tell() > 0 and not _ends_with_newline(path):
            line = "\n" + line  # a hand edit left the last line open: keep ours whole
        f.write(line)
    return path


def _ends_with_newline(path: Path) -> bool:
    with open(path, "rb") as f:
        f.seek(-1, os.SEEK_END)
        return f.read(1) == b"\n"


def record(root: Path, e: Entry) -> Recorded:
    """Compare with the previous run of the same key, then append. A history that cannot be
    read or written never stops the run: the problem comes back as a warning."""
    prev, warnings = find_previous(root, e)
    path = runs_file(root)
    try:
        path = append(root, e)
    except (OSError, ValueError) as exc:
        warnings.append(f"cannot write {path}: {exc}")
    if prev is None:
        return Recorded(e, path, None, None, None, tuple(warnings))
    return Recorded(e, path, prev, timing_change(prev, e), output_change(prev, e), tuple(warnings))


def slower_message(kernel: str, change: TimingChange, previous: Entry, current: Entry) -> str:
    return (f"'{kernel}' took {ms(change.current_ms)}, {change.words()} than the previous run's "
            f"{ms(change.previous_ms)} (this run {ms(current['min_ms'])} to {ms(current['max_ms'])}, "
            f"the previous {ms(previous['min_ms'])} to {ms(previous['max_ms'])})")


def diagnostics(rec: Recorded, source: Path) -> list[Diagnostic]:
    """CL920 and CL921 for a recorded run, at the kernel's name in `source` as it is on disk."""
    found: list[tuple[str, Severity, str]] = []
    if rec.timing is not None and rec.timing.slower and rec.previous is not None:
        found.append(("CL920", Severity.INFO, slower_message(rec.entry["kernel"], rec.timing, rec.previous,
                                                             rec.entry)))
    if rec.output is not None:
        found.append(("CL921", Severity.WARNING, rec.output.message()))
    if not found:
        return []
    try:
        text = source.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    chars = kernel_name_span(text, rec.entry["kernel"]) or (0, 0)
    start = len(text[: chars[0]].encode("utf-8"))
    span = Span(str(Path(os.path.abspath(source))), start, start + len(text[chars[0]: chars[1]].encode("utf-8")))
    return [Diagnostic(code, sev, msg, span) for code, sev, msg in found]
