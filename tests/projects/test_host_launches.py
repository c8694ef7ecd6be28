"""Kernels the workspace's host code launches as one work-group (issue 31, round 5): a launch
whose global size equals its local size in every dimension (C's `clEnqueueNDRangeKernel` with
one size array for both or equal literal sizes, `clEnqueueTask`, C++'s `enqueueNDRangeKernel`
with one `cl::NDRange` twice, pyopencl's `prg.k(queue, (n,), (n,), ...)`) runs no two
work-groups, so no race between work-groups (CL211 across groups) is reported in a kernel every
launch of which is such. Case folders under fixtures/launches/{tune,heldout}: a kernel whose
only race is between work-groups, and host code that launches it; `heldout/` (a third of each
label, picked by hash and written with the rest before any code) is only scored.

    .venv/bin/python tests/projects/test_host_launches.py    # figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from labelled_workspaces import case_id, cases, expected, reports  # noqa: E402

from cllint.project.launches import one_group_kernels  # noqa: E402

CASES = cases("launches")
TUNE = [c for c in CASES if c.parent.name == "tune"]
HELDOUT = [c for c in CASES if c.parent.name == "heldout"]


def races(case: Path) -> list[tuple[str, str, int]]:
    return [r for r in reports(case) if r[1].startswith("CL21")]


@pytest.mark.parametrize("case", TUNE, ids=case_id)
def test_tune_case(case: Path) -> None:
    assert races(case) == expected(case)


def test_cases_are_labelled_both_ways() -> None:
    for half in (TUNE, HELDOUT):
        assert any(expected(c) for c in half) and any(not expected(c) for c in half)


C_HOST = b"""void run(cl_command_queue q, cl_program p) {
  cl_kernel kern = clCreateKernel(p, "k", NULL);
  SIZES
  clEnqueueNDRangeKernel(q, kern, 2, NULL, G, L, 0, NULL, NULL);
}
"""


@pytest.mark.parametrize("sizes, g, l, one", [
    (b"size_t n[2] = {8, 8};", b"n", b"n", True),
    (b"size_t g[2] = {8, 8}, l[2] = {8, 8};", b"g", b"l", True),
    (b"size_t g[2] = {8, 16}, l[2] = {8, 8};", b"g", b"l", False),  # the second dimension differs
    (b"size_t g = 64, l = 64; g = n * 64;", b"&g", b"&l", False),  # assigned again
    (b"size_t g = 64, l = 64; g *= 2;", b"&g", b"&l", False),
    (b"size_t l = 64;", b"&l", b"NULL", False),  # the implementation picks the local size
    (b"size_t g = n, l = n;", b"&g", b"&l", False),  # two names of values not known here
    # the local size asked of the device writes it
    (b"size_t g = 64, l = 64; clGetKernelWorkGroupInfo(kern, d, CL_KERNEL_WORK_GROUP_SIZE, sizeof(l), &l, NULL);",
     b"&g", b"&l", False),
])
def test_c_sizes(sizes: bytes, g: bytes, l: bytes, one: bool) -> None:  # noqa: E741
    host = C_HOST.replace(b"SIZES", sizes).replace(b"G, L", g + b", " + l)
    assert one_group_kernels({Path("main.c"): host}, {"k"}) == (frozenset({"k"}) if one else frozenset())


def test_a_launch_of_a_kernel_not_told_voids_every_name() -> None:
    # (the kernel object stored where others may reach it: `all_kernels[0] = kern`)
    host = C_HOST.replace(b"SIZES", b"size_t n = 64; all_kernels[0] = kern;").replace(b"G, L", b"&n, &n")
    other = b"void go(cl_command_queue q, cl_kernel *ks, size_t *g) {\n" \
            b"  clEnqueueNDRangeKernel(q, ks[1], 1, NULL, g, NULL, 0, NULL, NULL);\n}\n"
    assert one_group_kernels({Path("main.c"): host}, {"k"}) == {"k"}
    assert one_group_kernels({Path("main.c"): host, Path("other.c"): other}, {"k"}) == frozenset()
    # but one a function keeps to itself (declared, launched, never passed on) is not the other's
    kept = C_HOST.replace(b"SIZES", b"size_t n = 64;").replace(b"G, L", b"&n, &n")
    assert one_group_kernels({Path("main.c"): kept, Path("other.c"): other}, {"k"}) == {"k"}
    # unless its name is written elsewhere too (a table of names another launch may make)
    table = other + b'const char *names[] = {"k", "j"};\n'
    assert one_group_kernels({Path("main.c"): kept, Path("other.c"): table}, {"k"}) == frozenset()


def test_pyopencl_kernel_taken_as_a_value_is_not_told() -> None:
    host = b"prg.k(queue, (64,), (64,), buf)\nknl = prg.k\nknl(queue, (n,), (64,), buf)\n"
    assert one_group_kernels({Path("run.py"): host}, {"k"}) == frozenset()
    assert one_group_kernels({Path("run.py"): host.split(b"\n")[0]}, {"k"}) == {"k"}


if __name__ == "__main__":
    for label, half in (("tune", TUNE), ("heldout", HELDOUT)):
        right = sum(races(c) == expected(c) for c in half)
        print(label, f"{right}/{len(half)}")
