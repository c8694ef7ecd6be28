"""Held-out comparison cases for CL920/CL921 (not looked at while tuning server/runner/changes.py)."""

from __future__ import annotations

from history_cases import FAILED, out, timing

TIMING_CASES = [
    ("4% slower with tight spreads", timing(10.0, 9.8, 10.2), timing(10.4, 10.3, 10.6), False),
    ("6% slower with tight spreads", timing(10.0, 9.9, 10.1), timing(10.6, 10.5, 10.7), True),
    ("25% slower inside a wide previous spread", timing(2.0, 1.0, 3.0), timing(2.5, 2.4, 2.6), False),
    ("twice as slow", timing(3.0, 2.9, 3.2), timing(6.0, 5.8, 6.5), True),
    ("both failed", FAILED, FAILED, None),
]

OUTPUT_CASES = [
    ("ints equal", [out("h", [0, 7, 9], "uint32")], [out("h", [0, 7, 9], "uint32")], None),
    ("minus zero against zero", [out("c", [0.0, 1.0])], [out("c", [-0.0, 1.0])], None),
    ("inf against inf", [out("c", ["inf", 1.0])], [out("c", ["inf", 1.0])], None),
    ("inf against -inf", [out("c", ["inf", 1.0])], [out("c", ["-inf", 1.0])], ("c", 0)),
    ("the first of two differences", [out("c", [1.0, 2.0, 3.0, 4.0], stride=2)],
     [out("c", [1.0, 2.5, 3.0, 4.5], stride=2)], ("c", 2)),
    ("large ints beyond float precision", [out("q", [2**53 + 1], "int64")], [out("q", [2**53 + 2], "int64")],
     ("q", 0)),
]
