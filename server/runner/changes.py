"""What changed between two runs of one kernel, launch and device (entries of .cllint/runs.jsonl).

    timing_change(previous, current) -> TimingChange | None   (CL920 when .slower)
    output_change(previous, current) -> OutputChange | None   (CL921)

Pure: plain dicts in the history's format (docs/run-on-device.md, "Run history"), no numpy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

Entry = dict[str, Any]

SLOWER_BY = 1.05  # beyond this ratio of medians, and outside both runs' spread: CL920
RTOL = 1e-4  # as numpy.isclose, and as `cllint run --expect`
ATOL = 1e-5
_SUMMARY = ("min", "max", "mean")


@dataclass(frozen=True)
class TimingChange:
    previous_ms: float
    current_ms: float
    slower: bool  # beyond noise: more than 5% and outside both runs' spread

    @property
    def ratio(self) -> float:
        return self.current_ms / self.previous_ms if self.previous_ms > 0 else math.inf

    def words(self) -> str:
        """'12% slower', '3% faster', '11× slower', 'as fast'."""
        r = self.ratio
        if r >= 2:
            return f"{r:.3g}× slower"
        if 0 < r <= 0.5:
            return f"{1 / r:.3g}× faster"
        pct = round((r - 1) * 100)
        return "as fast" if pct == 0 else f"{abs(pct)}% {'slower' if pct > 0 else 'faster'}"

    def short(self) -> str:
        """For the ▶ Run lens: '+12%', '−3%', '±0%', '11× slower'."""
        r = self.ratio
        if r >= 2 or 0 < r <= 0.5:
            return self.words()
        pct = round((r - 1) * 100)
        return "±0%" if pct == 0 else f"+{pct}%" if pct > 0 else f"−{-pct}%"


@dataclass(frozen=True)
class OutputChange:
    buffer: str
    index: int | None  # first differing flat index; None when only the summary differs
    what: str  # "value", "count", "dtype", "nan", "inf", "min", "max", "mean"
    current: str
    previous: str

    def message(self) -> str:
        head = f"output '{self.buffer}' changed since the previous run"
        if self.what == "value":
            return f"{head}: {self.buffer}[{self.index}] is {self.current}, was {self.previous}"
        if self.what in ("count", "dtype"):
            return f"{head}: its {self.what} is {self.current}, was {self.previous}"
        noun = {"nan": "NaN count", "inf": "infinity count"}.get(self.what, self.what)
        return f"{head}: its {noun} is {self.current}, was {self.previous} (the sampled values agree)"


def ms(x: float) -> str:
    return f"{x:.3g} ms"


def _timed(e: Entry) -> bool:
    return bool(e.get("ok")) and all(isinstance(e.get(k), (int, float)) for k in ("median_ms", "min_ms", "max_ms"))


def timing_change(previous: Entry, current: Entry) -> TimingChange | None:
    """None unless both runs completed with timings. Slower beyond noise: the median grew more
    than 5%, the new median is above everything the previous run measured, and the previous
    median is below everything this run measured (a single outlier in either run does not
    hide a real change nor make one)."""
    if not (_timed(previous) and _timed(current)):
        return None
    p, c = float(previous["median_ms"]), float(current["median_ms"])
    slower = c > p * SLOWER_BY and c > float(previous["max_ms"]) and float(current["min_ms"]) > p
    return TimingChange(p, c, slower)


def _value(v: Any) -> float:
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(v, math.nan)
    return float(v)


def _show(v: Any) -> str:
    if isinstance(v, str):
        return {"nan": "NaN", "inf": "inf", "-inf": "-inf"}.get(v, v)
    if isinstance(v, float):
        return f"{v:.7g}"
    return str(v)


def _close(a: Any, b: Any, exact: bool) -> bool:
    """numpy.isclose(a, b, rtol, atol, equal_nan=True), b the previous value; exact for integers."""
    if exact and not isinstance(a, str) and not isinstance(b, str):
        return int(a) == int(b)
    x, y = _value(a), _value(b)
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    if math.isinf(x) or math.isinf(y):
        return x == y
    return abs(x - y) <= ATOL + RTOL * abs(y)


def _buffer_change(p: Entry, c: Entry) -> OutputChange | None:
    name = c["name"]
    for what in ("dtype", "count", "stride"):
        if p.get(what) != c.get(what):
            key = "count" if what == "stride" else what
            return OutputChange(name, None, key, str(c.get(key)), str(p.get(key)))
    if p.get("digest") and p.get("digest") == c.get("digest"):
        return None
    exact = str(c.get("dtype", "")).startswith(("int", "uint", "bool"))
    stride = int(c.get("stride") or 1)
    for i, (a, b) in enumerate(zip(c.get("sample") or [], p.get("sample") or [])):
        if not _close(a, b, exact):
            return OutputChange(name, i * stride, "value", _show(a), _show(b))
    for what in ("nan", "inf"):
        if int(c.get(what) or 0) != int(p.get(what) or 0):
            return OutputChange(name, None, what, str(c.get(what)), str(p.get(what)))
    for what in _SUMMARY:
        a, b = c.get(what), p.get(what)
        if (a is None) != (b is None) or (a is not None and not _close(a, b, False)):
            return OutputChange(name, None, what, _show(a), _show(b))
    return None


def output_change(previous: Entry, current: Entry) -> OutputChange | None:
    """The first shown buffer (in this run's order) that differs beyond rtol 1e-4 / atol 1e-5
    (exactly, for integers) from the previous run's, on the stored sample or the summary.
    A buffer only one of the runs shows is not compared."""
    if not (previous.get("ok") and current.get("ok")):
        return None
    before = {o.get("name"): o for o in previous.get("outputs") or [] if isinstance(o, dict)}
    for o in current.get("outputs") or []:
        if isinstance(o, dict) and o.get("name") in before:
            found = _buffer_change(before[o["name"]], o)
            if found is not None:
                return found
    return None
