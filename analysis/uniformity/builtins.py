"""OpenCL C built-ins the uniformity analysis knows by name (OpenCL C spec 6.15)."""

from __future__ import annotations

# Tags are bits; a value's tags say why it may differ between work-items.
WI = 1  # differs between work-items, possibly within one sub-group (get_local_id, atomics)
LANE = 2  # differs within every sub-group (get_sub_group_local_id)
SGID = 4  # same within a sub-group, differs between sub-groups (get_sub_group_id)
PARAM0 = 8  # bit 3+i: depends on parameter i of the function being summarised

WG_DIVERGENT = WI | LANE | SGID
SG_DIVERGENT = LANE
NONPARAM = WG_DIVERGENT


def param_bit(i: int) -> int:
    return PARAM0 << i


def param_indices(tags: int) -> list[int]:
    out, i, bits = [], 0, tags >> 3
    while bits:
        if bits & 1:
            out.append(i)
        bits >>= 1
        i += 1
    return out


# Work-item functions whose result differs between work-items of one work-group.
SOURCES: dict[str, int] = {
    "get_local_id": WI,
    "get_global_id": WI,
    "get_local_linear_id": WI,
    "get_global_linear_id": WI,
    "get_sub_group_local_id": LANE,
    "get_sub_group_id": SGID,
    # Sub-group scans give each lane its own prefix.
    "sub_group_scan_exclusive_add": LANE,
    "sub_group_scan_exclusive_min": LANE,
    "sub_group_scan_exclusive_max": LANE,
    "sub_group_scan_inclusive_add": LANE,
    "sub_group_scan_inclusive_min": LANE,
    "sub_group_scan_inclusive_max": LANE,
    "work_group_scan_exclusive_add": WI,
    "work_group_scan_exclusive_min": WI,
    "work_group_scan_exclusive_max": WI,
    "work_group_scan_inclusive_add": WI,
    "work_group_scan_inclusive_min": WI,
    "work_group_scan_inclusive_max": WI,
    "read_pipe": WI,
    "write_pipe": WI,
    "read_imagef": 0,  # result follows the coordinates, like any pure built-in
}

# Built-ins whose result is the same for the whole work-group whatever the arguments.
WG_UNIFORM_RESULT = {
    "work_group_reduce_add", "work_group_reduce_min", "work_group_reduce_max",
    "work_group_broadcast", "work_group_any", "work_group_all",
    "async_work_group_copy", "async_work_group_strided_copy",
    "work_group_reserve_read_pipe", "work_group_reserve_write_pipe",
}  # fmt: skip

# Built-ins whose result is the same within a sub-group.
SG_UNIFORM_RESULT = {
    "sub_group_reduce_add", "sub_group_reduce_min", "sub_group_reduce_max",
    "sub_group_broadcast", "sub_group_any", "sub_group_all",
    "sub_group_reserve_read_pipe", "sub_group_reserve_write_pipe",
}  # fmt: skip


def source_tags(name: str) -> int | None:
    """Tags a call's result gets from the callee alone; None when it follows the arguments."""
    if name in SOURCES:
        return SOURCES[name]
    if name.startswith(("atomic_", "atom_")) and name not in ("atomic_init", "atomic_work_item_fence"):
        return WI  # each work-item sees a different old value
    if name.endswith("_pipe") and name.startswith(("read_pipe", "reserve_read_pipe", "reserve_write_pipe")):
        return WI
    return None


BARRIERS = {"barrier", "work_group_barrier"}

# Work-group functions other than barriers that every work-item must reach (6.15.x).
WG_COLLECTIVES = {
    "work_group_reduce_add", "work_group_reduce_min", "work_group_reduce_max",
    "work_group_scan_exclusive_add", "work_group_scan_exclusive_min", "work_group_scan_exclusive_max",
    "work_group_scan_inclusive_add", "work_group_scan_inclusive_min", "work_group_scan_inclusive_max",
    "work_group_broadcast", "work_group_any", "work_group_all",
    "async_work_group_copy", "async_work_group_strided_copy", "wait_group_events",
    "work_group_reserve_read_pipe", "work_group_reserve_write_pipe",
    "work_group_commit_read_pipe", "work_group_commit_write_pipe",
}  # fmt: skip

SG_FUNCTIONS_PREFIXES = (
    "sub_group_barrier", "sub_group_reduce_", "sub_group_scan_", "sub_group_broadcast",
    "sub_group_any", "sub_group_all", "sub_group_reserve_", "sub_group_commit_",
    "sub_group_shuffle", "sub_group_clustered_",
)  # fmt: skip


def sync_kind(name: str) -> str | None:
    """'barrier', 'collective', 'subgroup' or None."""
    if name in BARRIERS:
        return "barrier"
    if name in WG_COLLECTIVES:
        return "collective"
    if name.startswith(SG_FUNCTIONS_PREFIXES):
        return "subgroup"
    return None


# Arguments (0-based) that must be the same for every work-item (or every lane).
UNIFORM_ARGS: dict[str, tuple[int, ...] | str] = {
    "barrier": (0,),
    "work_group_barrier": (0, 1),
    "sub_group_barrier": (0, 1),
    "work_group_broadcast": (1, 2, 3),
    "sub_group_broadcast": (1,),
    "async_work_group_copy": (0, 1, 2, 3),
    "async_work_group_strided_copy": (0, 1, 2, 3, 4),
    "wait_group_events": (0, 1),
    "work_group_reserve_read_pipe": (0, 1),
    "work_group_reserve_write_pipe": (0, 1),
    "work_group_commit_read_pipe": (0, 1),
    "work_group_commit_write_pipe": (0, 1),
}
