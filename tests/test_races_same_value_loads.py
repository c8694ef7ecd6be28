"""CL21x on stores whose value is read from memory every work-item reads at one place (issues 29
and 31): several work-items store into one cell a value loaded at a work-group-uniform address
(or, per pair, at the same address for the two work-items that meet) from memory nobody writes
in that barrier interval (`out[group] = l[0]` after a reduction, `s[w] = t[w]` per warp, a tail
loop storing `in[i] / sum` with `sum = l[0]`): one value, benign as Oclgrind deems it. Positives
keep a value that can differ (the item's own element, a private cell, memory written in the
interval, an index read per item). Cases under tests/rules/fixtures/races/same_value/, labels by
`oclgrind-kernel --data-races` (silent on the negatives, racy on them with --uniform-writes;
tests/test_races_oclgrind.py reruns them); `heldout/` (a third of each label by hash, written
with the rest before the code) is only scored.

    .venv/bin/python tests/test_races_same_value_loads.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "same_value"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


def test_the_set_is_there() -> None:
    assert len(TUNE) >= 10 and len(HELDOUT) >= 5
    for half in (TUNE, HELDOUT):
        assert any(p.name.startswith("pos_") for p in half) and any(p.name.startswith("neg_") for p in half)


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path)


def _kernel(tail: bytes) -> bytes:
    return (b"kernel void k(global float *out, global const float *in, global float *buf) {\n"
            b"  local float l[32];\n  unsigned lid = get_local_id(0);\n  l[lid] = in[get_global_id(0)];\n"
            b"  barrier(CLK_LOCAL_MEM_FENCE);\n" + tail + b"\n}\n")


@pytest.mark.parametrize("tail, racy", [
    (b"out[get_group_id(0)] = l[0];", False),
    (b"out[get_group_id(0)] = l[lid];", True),
    (b"out[get_group_id(0)] = l[0] * in[2];", False),  # read-only memory at a fixed place
    (b"out[get_group_id(0)] = buf[2];", True),  # not const: another work-group may write it
    (b"out[get_group_id(0)] = l[1]; if (lid == 5) l[1] = 2.0f;", True),  # its own cell, written in the interval
])
def test_uniform_loads(tail: bytes, racy: bool) -> None:
    got = {d.code for d in lint(_kernel(tail)) if "'out[" in d.message}
    assert bool(got) == racy, got


def test_constant_memory_is_read_only() -> None:
    """__constant memory (an argument or a program-scope table) is read-only: a load of it at a
    uniform index is one value (OpenCL C 6.7.3)."""
    src = (b"constant float table[4] = {1.0f, 2.0f, 3.0f, 4.0f};\n"
           b"kernel void k(global float *out, constant float *c) {\n  local float l[32];\n"
           b"  unsigned lid = get_local_id(0);\n  l[lid] = (float)lid;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           b"  out[get_group_id(0)] = l[0] * table[2];\n  out[get_num_groups(0) + get_group_id(0)] = l[1] * c[3];\n"
           b"  out[2 * get_num_groups(0) + get_group_id(0)] = c[lid];\n}\n")
    got = [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint(src)]
    assert got == [("CL211", 9)], got  # c[lid]: each work-item's own element


if __name__ == "__main__":
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        print(name, figures(half))
    sys.exit(0)
