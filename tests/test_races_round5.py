"""CL21x on the round-5 labelled race set (issue 31): race-free kernels of the kinds real code
has (writes guarded by the group id, per-group slices, atomics-only counters, barrier-separated
phases, single writers such as `get_global_id(0) == 0`) and racy counterparts of each
(tests/rules/fixtures/races/round5/). `tune/` is what the work was done against; `heldout/` (a
third, picked by hash, written with the rest before any code and set aside) is only scored.
Every label is confirmed by `oclgrind-kernel --data-races` at multi-group launch sizes
(tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round5.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round5"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path)


@pytest.mark.parametrize("body, racy", [
    # a struct's fields named like vector components or halves are still two fields
    (b"s[lid].v = lid; out[lid] = s[lid ^ 1].w;", False),
    (b"s[lid].w = lid; out[lid] = s[lid ^ 1].w;", True),
    (b"s[lid].lo = lid; out[lid] = s[lid ^ 1].hi;", False),
    (b"s[lid].count = lid; out[lid] = s[lid ^ 1].x;", False),
    # a vector's halves
    (b"v[lid].lo = (float2)(lid); out[lid] = v[lid ^ 1].hi.x;", False),
    (b"v[lid].lo = (float2)(lid); out[lid] = v[lid ^ 1].lo.y;", True),
    (b"v[lid].even = (float2)(lid); out[lid] = v[lid ^ 1].odd.x;", False),
    (b"v[lid].lo = (float2)(lid); out[lid] = v[lid ^ 1].even.x;", True),  # .lo and .even share .x
])
def test_fields_and_halves(body: bytes, racy: bool) -> None:
    src = (b"typedef struct { float v, w, lo, hi, count, x; } rec;\n"
           b"kernel void k(global float *out) {\n  local rec s[16];\n  local float4 v[16];\n"
           b"  int lid = get_local_id(0);\n  " + body + b"\n}\n")
    assert bool(lint(src)) == racy


@pytest.mark.parametrize("guard, racy", [
    (b"flag[0] == 0", True),  # the whole work-group loads one flag: all items or none store
    (b"flag[get_group_id(0)] > 2", True),
    (b"flag[lid] > 2", False),  # each item its own datum: the data may let one item only pass
])
def test_guards_on_loads_the_work_group_shares(guard: bytes, racy: bool) -> None:
    src = (b"kernel void k(global const int *flag, global float *out) {\n  local float l[1];\n"
           b"  int lid = get_local_id(0);\n  if (GUARD)\n    l[0] = lid;\n}\n").replace(b"GUARD", guard)
    assert bool(lint(src)) == racy


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
