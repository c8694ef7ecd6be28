"""The race check's answer to "may this store's value differ between work-items?" kept per
access for one kernel's search (issue 32: the same-value policy asked it of each side of every
pair, for the pair within a work-group and again across work-groups, and twice for a store
paired with itself). Kernels with a uniform and a divergent store side by side, so an answer
kept under the wrong access would show; labels from the same-value policy (every work-item
storing one value is benign, as Oclgrind deems it; values that differ race). The last two
(held out) were written with the rest before the code and only run once it was done."""

from __future__ import annotations

import pytest

from test_races_round2 import lint

TUNE = {
    # every work-item stores 7: benign
    "all_store_seven": (b"""kernel void k(global int *out) {
    local int l[1];
    l[0] = 7;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[0];
}
""", set()),
    # a uniform store, then a store of the work-item's id into the same cell: a race
    "uniform_then_item_id": (b"""kernel void k(global int *out) {
    local int l[1];
    l[0] = 1;
    l[0] = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[0];
}
""", {("CL210", 3), ("CL210", 4)}),
    # every work-group stores 5 into out[0]: benign
    "every_group_stores_five": (b"""kernel void k(global int *out) {
    out[0] = 5;
}
""", set()),
    # each work-group stores its own id into out[0]: a race across work-groups
    "group_id_into_one_cell": (b"""kernel void k(global int *out) {
    out[0] = (int)get_group_id(0);
}
""", {("CL211", 2)}),
}

HELDOUT = {
    # neighbours' cells overlap (out[gid + 1] of one, out[gid] of the next) with other values
    "neighbours_store_other_values": (b"""kernel void k(global int *out, int n) {
    local int l[1];
    l[0] = n;
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[0] + 1;
    out[get_global_id(0) + 1] = l[0];
}
""", {("CL211", 5), ("CL211", 6)}),
    # l[0] takes the argument (benign), l[1] the work-item's id (a race)
    "uniform_and_item_cells": (b"""kernel void k(global int *out, int n) {
    local int l[2];
    l[0] = n;
    l[1] = (int)get_local_id(0);
    barrier(CLK_LOCAL_MEM_FENCE);
    out[get_global_id(0)] = l[0] + l[1];
}
""", {("CL210", 4)}),
}


def _check(src: bytes, want: set[tuple[str, int]]) -> None:
    got = {(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint(src)}
    if want:
        assert got and got <= want, (got, want)
    else:
        assert got == set()


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    _check(*TUNE[name])


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    _check(*HELDOUT[name])
