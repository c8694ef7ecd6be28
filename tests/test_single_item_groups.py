"""CL201-CL205 in kernels whose work-groups hold one work-item (`reqd_work_group_size(1, 1, 1)`,
issue 29: the OpenCL Programming Guide's spmv AWGC kernel, launched with local size 1): no two
work-items of a group exist to differ, so no barrier, collective or argument can diverge. Other
sizes, and helpers outside such a kernel, report as before.

Cases written before the change; HELDOUT scored only once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

COPY = (b"    event_t e = async_work_group_copy(out + get_global_id(0) * 8, (__local const float *)tmp,\n"
        b"                                      (size_t)n[get_global_id(0)], (event_t)0);\n"
        b"    wait_group_events(1, &e);\n}\n")
HEAD = b"__global float *out, __global const int *n, __local float *tmp) {\n"

TUNE = {
    "one_item_copy": (b"__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void k(" + HEAD + COPY, set()),
    "sixty_four_items_copy": (b"__kernel __attribute__((reqd_work_group_size(64, 1, 1))) void k(" + HEAD + COPY,
                              {("CL204", 2), ("CL204", 3)}),
    "one_item_divergent_barrier": (b"__kernel __attribute__((reqd_work_group_size(1, 1, 1)))\n"
                                   b"void k(__global float *a, int n) {\n"
                                   b"    if (get_global_id(0) < n) {\n        barrier(CLK_GLOBAL_MEM_FENCE);\n"
                                   b"        a[get_global_id(0)] = 1.0f;\n    }\n}\n", set()),
}

HELDOUT = {
    "attribute_line_before": (b"__attribute__((reqd_work_group_size(1,1,1)))\n__kernel void k(" + HEAD + COPY, set()),
    "helper_still_reported": (b"void h(__global float *a, int n) {\n    if (get_global_id(0) < n)\n"
                              b"        barrier(CLK_LOCAL_MEM_FENCE);\n}\n"
                              b"__kernel __attribute__((reqd_work_group_size(1, 1, 1))) void k(__global float *a, int n) {\n"
                              b"    a[0] = 0.0f;\n}\n", {("CL201", 3)}),
    "two_items_barrier": (b"__kernel __attribute__((reqd_work_group_size(2, 1, 1)))\n"
                          b"void k(__global float *a, int n) {\n"
                          b"    if (get_local_id(0) < n) {\n        barrier(CLK_LOCAL_MEM_FENCE);\n    }\n}\n",
                          {("CL201", 4)}),
}


def _reports(src: bytes) -> set[tuple[str, int]]:
    diags = lint_tree("t.cl", src, parse(src), LintOptions(select=("CL2",)))
    return {(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in diags if d.code in
            ("CL201", "CL202", "CL203", "CL204", "CL205")}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, want = TUNE[name]
    assert _reports(src) == want


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, want = HELDOUT[name]
    assert _reports(src) == want
