"""The run history as people read it: `cllint runs` (text and JSON), `:CllintRuns` in Neovim and
the ▶ Run lens's title. Pure: reads entries (history.py), writes strings and plain data."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .changes import Entry, OutputChange, TimingChange, ms, output_change, timing_change
from .history import History, key

SPARKS = "▁▂▃▄▅▆▇█"
FAILED_SPARK = "✗"


@dataclass(frozen=True)
class Compared:
    """One run with what changed since the previous run of its key (None for the first)."""

    entry: Entry
    previous: Entry | None
    timing: TimingChange | None
    output: OutputChange | None


def compared(entries: list[Entry]) -> list[Compared]:
    """Each entry against the latest completed entry of its key before it, oldest first."""
    last: dict[str, Entry] = {}
    out = []
    for e in entries:
        k = key(e)
        prev = last.get(k)
        out.append(Compared(e, prev, timing_change(prev, e) if prev else None,
                            output_change(prev, e) if prev else None))
        if e.get("ok") and e.get("launch") is not None:
            last[k] = e
    return out


def device_short(label: str) -> str:
    """'pthread-… (Portable Computing Language)' -> 'PoCL'; 'NVIDIA H200 (NVIDIA CUDA)' -> 'NVIDIA H200'."""
    name, _, platform = label.rpartition(" (")
    platform = platform.rstrip(")")
    if "Portable Computing Language" in platform or platform.lower().startswith("pocl"):
        return "PoCL"
    if "oclgrind" in label.lower():
        return "Oclgrind"
    return name or label


def lens_title(c: Compared | None) -> str:
    """`▶ Run · 0.42 ms −3% · PoCL`; `▶ Run` before any run."""
    if c is None:
        return "▶ Run"
    e = c.entry
    dev = device_short(str(e.get("device", "")))
    if not e.get("ok") or e.get("median_ms") is None:
        return f"▶ Run · ✗ failed · {dev}"
    parts = [ms(float(e["median_ms"])) + (f" {c.timing.short()}" if c.timing else "")]
    if c.output is not None:
        parts.append(f"≠ {c.output.buffer}")
    return "▶ Run · " + " · ".join(parts + [dev])


def sparkline(values: list[float | None]) -> str:
    """One character per run: its median's height between the lowest and highest; ✗ a failure."""
    known = [v for v in values if v is not None]
    if not known:
        return FAILED_SPARK * len(values)
    lo, hi = min(known), max(known)
    out = []
    for v in values:
        if v is None:
            out.append(FAILED_SPARK)
        else:
            out.append(SPARKS[0] if hi == lo else SPARKS[round((v - lo) / (hi - lo) * (len(SPARKS) - 1))])
    return "".join(out)


def _launch_text(e: Entry) -> str:
    launch = e.get("launch") or e.get("requested") or {}
    g = "x".join(map(str, launch.get("global") or [])) or "inferred"
    lo = "x".join(map(str, launch.get("local") or [])) or "driver's choice"
    return f"global {g}, local {lo}"


def _line(c: Compared) -> str:
    e = c.entry
    when = str(e.get("time", ""))[:19].replace("T", " ")
    head = f"  {when}  {str(e.get('via', '')):<4}"
    if not e.get("ok"):
        return f"{head}  failed: {e.get('error') or 'no time'}"
    t = f"{ms(float(e['median_ms']))} (min {ms(float(e['min_ms']))}, max {ms(float(e['max_ms']))})"
    notes = []
    if c.timing is not None:
        notes.append(c.timing.words() + (" [CL920]" if c.timing.slower else ""))
    if c.output is not None:
        notes.append(f"{c.output.message()} [CL921]")
    return f"{head}  {t}" + ("  " + "; ".join(notes) if notes else "")


def groups(runs: list[Compared]) -> list[list[Compared]]:
    by: dict[tuple[str, str, str, str], list[Compared]] = {}
    for c in runs:  # failures join the group of their file, kernel and device
        e = c.entry
        by.setdefault((e["file"], e["kernel"], e["device"], key(e) if e.get("launch") else ""), []).append(c)
    merged: dict[tuple[str, str, str], list[list[Compared]]] = {}
    for (f, k, d, launch), items in by.items():
        merged.setdefault((f, k, d), []).append(items)
    out = []
    for parts in merged.values():
        ok = [p for p in parts if p[0].entry.get("launch") is not None]
        failed = [c for p in parts if p[0].entry.get("launch") is None for c in p]
        if ok:
            ok[-1] = sorted(ok[-1] + failed, key=lambda c: str(c.entry.get("time")))
            out += ok
        else:
            out.append(failed)
    return out


def lines(history: History, file: str | None = None, kernel: str | None = None) -> list[str]:
    """Per kernel, launch and device: a header, a sparkline of the medians, one line per run."""
    runs = compared(history.entries)
    chosen = [c for c in runs if (file is None or c.entry["file"] == file)
              and (kernel is None or c.entry["kernel"] == kernel)]
    if not chosen:
        return []
    out: list[str] = []
    for group in groups(chosen):
        first = group[0].entry
        medians = [c.entry.get("median_ms") if c.entry.get("ok") else None for c in group]
        known = [m for m in medians if m is not None]
        span = f"  median {ms(known[0])} → {ms(known[-1])}" if len(known) > 1 else ""
        out.append(f"{first['file']}: {first['kernel']} on {first['device']}, {_launch_text(first)} "
                   f"({len(group)} run{'s' if len(group) != 1 else ''})")
        out.append(f"  {sparkline(medians)}{span}")
        out += [_line(c) for c in group]
        out.append("")
    return out[:-1]


def runs_json(history: History, file: str | None = None, kernel: str | None = None) -> list[dict[str, Any]]:
    """One object per run: the entry as stored, plus `compared` (the previous run's time and
    median, the change, CL920 / CL921 as they would be reported); the samples are left out."""
    out = []
    for c in compared(history.entries):
        e = c.entry
        if (file is not None and e["file"] != file) or (kernel is not None and e["kernel"] != kernel):
            continue
        obj = {**e, "outputs": [{k: v for k, v in o.items() if k != "sample"} for o in e.get("outputs") or []]}
        obj["compared"] = None if c.previous is None else {
            "previous_time": c.previous.get("time"), "previous_median_ms": c.previous.get("median_ms"),
            "ratio": c.timing.ratio if c.timing else None, "slower": bool(c.timing and c.timing.slower),
            "output_changed": None if c.output is None else {
                "buffer": c.output.buffer, "index": c.output.index, "what": c.output.what,
                "current": c.output.current, "previous": c.output.previous, "message": c.output.message()},
        }
        out.append(obj)
    return out
