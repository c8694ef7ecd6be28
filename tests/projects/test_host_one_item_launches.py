"""Kernels the workspace's host code launches as one work-item (issue 29: StarPU's examples and
tests, whose kernels update one counter and run as `size_t global=1; size_t local=1;`): a
launch whose global and local sizes are 1 in every dimension (equal literals, one name twice,
`clEnqueueTask`) runs a single work-item, so no race of any kind can happen in a kernel every
launch of which is such. The kernel may be named where it is made (`clCreateKernel(p, "k")`)
or through a runtime's loader that writes it through a pointer (`load_kernel(&kernel, &queue,
&program, "k", dev)`); sizes written alike in several functions of one file (`size_t
global=1;` in each) count when every definition gives the same literal. Case folders under
fixtures/one_item_launches/{tune,heldout}; `heldout/` (crc32 of the name % 3 == 0, written with
the rest before any code) is only scored.

    .venv/bin/python tests/projects/test_host_one_item_launches.py    # figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from labelled_workspaces import case_id, cases, expected, reports  # noqa: E402

CASES = cases("one_item_launches")
TUNE = [c for c in CASES if c.parent.name == "tune"]
HELDOUT = [c for c in CASES if c.parent.name == "heldout"]


def races(case: Path) -> list[tuple[str, str, int]]:
    return [r for r in reports(case) if r[1].startswith("CL21")]


@pytest.mark.parametrize("case", TUNE, ids=case_id)
def test_tune_case(case: Path) -> None:
    assert races(case) == expected(case)


def test_heldout_cases() -> None:
    # scored once after the code: 2/2 (0/2 before)
    assert [c.name for c in HELDOUT if races(c) != expected(c)] == []


def test_tune_has_both_labels() -> None:
    assert any(expected(c) for c in TUNE) and any(not expected(c) for c in TUNE)


def main() -> int:
    for name, half in (("tune", TUNE), ("heldout", HELDOUT)):
        right = sum(races(c) == expected(c) for c in half)
        print(f"{name}: {right}/{len(half)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
