"""CL201 given the host's launch (issue 29): a kernel argument the host sets from the very value
it launches with as the local (or global) size makes a test of the local (global) id against it
one every work-item passes (ggml's argsort: `local_work_size {ne00_padded}` and argument 5
`ne00_padded`, so `if (col >= ne00_pad) return;` never returns). Read through a C or C++
`clSetKernelArg(k, i, size, &x)` and the launch's size arrays (`clEnqueueNDRangeKernel` or a
wrapper forwarding its parameters to it); every launch of the kernel must agree. Case folders
under fixtures/launch_bounds/{tune,heldout}; labels by Oclgrind on the host's launch.

    .venv/bin/python tests/projects/test_launch_bounds.py    # figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from labelled_workspaces import case_id, cases, expected, reports  # noqa: E402

CASES = cases("launch_bounds")
TUNE = [c for c in CASES if c.parent.name == "tune"]
HELDOUT = [c for c in CASES if c.parent.name == "heldout"]


def divergence(case: Path) -> list[tuple[str, str, int]]:
    return [r for r in reports(case) if r[1].startswith("CL20")]


@pytest.mark.parametrize("case", TUNE, ids=case_id)
def test_tune_case(case: Path) -> None:
    assert divergence(case) == expected(case)


def test_cases_are_labelled_both_ways() -> None:
    for half in (TUNE, HELDOUT):
        assert any(expected(c) for c in half) and any(not expected(c) for c in half)


if __name__ == "__main__":
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        right = sum(divergence(c) == expected(c) for c in half)
        print(f"{name}: {right}/{len(half)}")
