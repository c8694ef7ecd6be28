"""Labelled comparison cases (tune set) for CL920 slower-than-previous and CL921 output-changed.

Each case is (name, previous entry, current entry, expected slower, expected change), where the
change is None or (buffer, first differing flat index or None when only the summary differs).
Written before server/runner/changes.py; the held-out third is in heldout/history_cases.py."""

from __future__ import annotations

from typing import Any


def timing(median: float, lo: float, hi: float, iterations: int = 10) -> dict[str, Any]:
    return {"ok": True, "iterations": iterations, "median_ms": median, "min_ms": lo, "max_ms": hi,
            "stdev_ms": (hi - lo) / 4}


def out(name: str, sample: list, dtype: str = "float32", stride: int = 1, count: int | None = None,
        mean: float | None = None, digest: str | None = None) -> dict[str, Any]:
    finite = [float(v) for v in sample if not isinstance(v, str)]
    return {"name": name, "dtype": dtype, "count": count if count is not None else len(sample) * stride,
            "min": min(finite) if finite else None, "max": max(finite) if finite else None,
            "mean": mean if mean is not None else (sum(finite) / len(finite) if finite else None),
            "nan": sum(1 for v in sample if v == "nan"), "inf": sum(1 for v in sample if v in ("inf", "-inf")),
            "digest": digest or f"sha256:{hash((name, dtype, tuple(map(str, sample)), stride, count, mean)) & 0xFFFFFFFF:08x}",
            "stride": stride, "sample": list(sample)}


def run(t: dict[str, Any] | None = None, outputs: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    base = {"ok": True, "iterations": 10, "median_ms": 1.0, "min_ms": 0.99, "max_ms": 1.01, "stdev_ms": 0.005}
    entry = {**base, **(t or {})}
    if t is not None and t.get("ok") is False:
        entry.update(median_ms=None, min_ms=None, max_ms=None, stdev_ms=None, iterations=0)
    entry["outputs"] = outputs if outputs is not None else [out("c", [1.0, 2.0, 3.0])]
    return entry


FAILED = {"ok": False}

TIMING_CASES = [
    ("12% slower, tight spreads", timing(0.42, 0.41, 0.43), timing(0.47, 0.46, 0.48), True),
    ("2% slower is noise", timing(0.42, 0.40, 0.44), timing(0.43, 0.42, 0.45), False),
    ("12% slower but inside the previous spread", timing(0.42, 0.30, 0.60), timing(0.47, 0.45, 0.50), False),
    ("30% slower but the previous median is inside the new spread", timing(1.0, 0.9, 1.1), timing(1.3, 0.95, 1.5),
     False),
    ("faster", timing(0.42, 0.41, 0.43), timing(0.30, 0.29, 0.31), False),
    ("one launch each, 6% slower", timing(1.0, 1.0, 1.0, 1), timing(1.06, 1.06, 1.06, 1), True),
    ("one launch each, 4% slower", timing(1.0, 1.0, 1.0, 1), timing(1.04, 1.04, 1.04, 1), False),
    ("100x slower despite an outlier in the previous run", timing(0.05, 0.04, 2.0), timing(5.0, 4.9, 5.2), True),
    ("the previous run failed", FAILED, timing(5.0, 4.9, 5.2), None),
    ("this run failed", timing(0.05, 0.04, 0.06), FAILED, None),
]

OUTPUT_CASES = [
    ("identical", [out("c", [1.0, 2.0, 3.0])], [out("c", [1.0, 2.0, 3.0])], None),
    ("within rtol", [out("c", [1.0, 2.0, 3.0, 4.0])], [out("c", [1.0, 2.0, 3.0, 4.000001])], None),
    ("float differs, strided", [out("c", [0.5, 1.5, 2.5, 9.0], stride=4)],
     [out("c", [0.5, 1.5, 3.5, 9.0], stride=4)], ("c", 8)),
    ("int differs by one", [out("n", [1, 2, 3, 4], "int32")], [out("n", [1, 2, 3, 5], "int32")], ("n", 3)),
    ("NaN in the same place", [out("c", [1.0, "nan", 3.0])], [out("c", [1.0, "nan", 3.0])], None),
    ("NaN where a number was", [out("c", [1.0, 2.0, 3.0])], [out("c", [1.0, "nan", 3.0])], ("c", 1)),
    ("sample equal, mean differs", [out("c", [1.0, 2.0], stride=64, mean=1.5)],
     [out("c", [1.0, 2.0], stride=64, mean=1.75)], ("c", None)),
    ("count differs", [out("c", [1.0, 2.0], count=2)], [out("c", [1.0, 2.0, 3.0], count=3)], ("c", None)),
    ("zero against 5e-6 is within atol", [out("c", [0.0, 1.0])], [out("c", [5e-6, 1.0])], None),
    ("a buffer shown only now", [out("c", [1.0])], [out("c", [1.0]), out("d", [2.0])], None),
    ("second buffer differs", [out("a", [1.0]), out("b", [1.0, 2.0])], [out("a", [1.0]), out("b", [1.0, 2.5])],
     ("b", 1)),
]
