"""What each optional feature and extension gates, where the catalogue says too little.

The catalogue (analysis/data/builtins.json) carries per-function and per-overload
requirements; these tables add the gates that hang on syntax (qualifiers, literals,
program-scope variables), constants of the atomics model, and function families whose
requirement sits only on their overloads.
"""

from __future__ import annotations

from functools import cache

from ..features import (
    CORE_2_0,
    DNF,
    EQUIVALENT,
    EXTENSIONS,
    FEATURES,
    FP64,
    GENERIC,
    IMAGES,
    INT64,
    PROGRAM_SCOPE,
    SUBGROUPS_ANY,
    V1_2,
    V2_0,
    Version,
)

FP64_ANY: DNF = ((FP64,), ("cl_khr_fp64",))
FP16: DNF = (("cl_khr_fp16",),)
IMAGE_3D_WRITES: DNF = (("__opencl_c_3d_image_writes",), ("cl_khr_3d_image_writes",))
READ_WRITE_IMAGES: DNF = (("__opencl_c_read_write_images",),)
PIPES: DNF = (("__opencl_c_pipes",),)
DEVICE_ENQUEUE: DNF = (("__opencl_c_device_enqueue",),)
WG_COLLECTIVES: DNF = (("__opencl_c_work_group_collective_functions",),)

# Constants of the 2.0 atomics model: spec 6.15.12.3 and 6.15.12.4 and the 6.2.1 table.
CONSTANTS: dict[str, tuple[Version, DNF]] = {
    "memory_order_seq_cst": (V2_0, (("__opencl_c_atomic_order_seq_cst",),)),
    "memory_order_acq_rel": (V2_0, (("__opencl_c_atomic_order_acq_rel",),)),
    "memory_order_acquire": (V2_0, (("__opencl_c_atomic_order_acq_rel",),)),
    "memory_order_release": (V2_0, (("__opencl_c_atomic_order_acq_rel",),)),
    "memory_order_relaxed": (V2_0, ()),
    "memory_scope_device": (V2_0, (("__opencl_c_atomic_scope_device",),)),
    "memory_scope_all_devices": (V2_0, (("__opencl_c_atomic_scope_all_devices",),)),
    "memory_scope_all_svm_devices": (V2_0, (("__opencl_c_atomic_scope_all_devices",),)),
    "memory_scope_work_group": (V2_0, ()),
    "memory_scope_work_item": (V2_0, ()),
    "memory_scope_sub_group": (V2_0, SUBGROUPS_ANY),
}

# The 32-bit `atom_*` on OpenCL C 1.0 (spec table "Atomic Function Extensions"): each is a
# base or an extended function, and comes from that group's extension for the address space
# its pointer points into, `cl_khr_{global,local}_int32_{base,extended}_atomics`. OpenCL C
# 1.1 made all four core ("OpenCL C 1.x Legacy Atomics" lists the `atom_` names beside the
# `atomic_` ones), so only a 1.0 target may lack them.
INT32_ATOMICS: dict[str, str] = {
    **dict.fromkeys(("atom_add", "atom_sub", "atom_xchg", "atom_inc", "atom_dec", "atom_cmpxchg"), "base"),
    **dict.fromkeys(("atom_min", "atom_max", "atom_and", "atom_or", "atom_xor"), "extended"),
}


def int32_atomics_extension(name: str, space: str) -> str | None:
    """The extension a 32-bit `atom_*` call on `space` ("global" or "local") needs on 1.0."""
    group = INT32_ATOMICS.get(name)
    return f"cl_khr_{space}_int32_{group}_atomics" if group and space in ("global", "local") else None


# Function-level overrides: name -> (since, requires); None keeps the catalogue's value.
FUNCTIONS: dict[str, tuple[Version | None, DNF | None]] = {
    "printf": (V1_2, None),  # 6.15.14: printf is new in OpenCL C 1.2
}

_SUBGROUP_PREFIXES = ("sub_group_", "get_sub_group_", "get_max_sub_group_size", "get_num_sub_groups",
                      "get_enqueued_num_sub_groups", "intel_sub_group")
_WG_COLLECTIVE_PREFIXES = ("work_group_reduce_", "work_group_scan_", "work_group_broadcast",
                           "work_group_any", "work_group_all")


def family_requirement(name: str) -> DNF | None:
    """Requirement of a built-in family whose catalogue entry leaves it to the overloads."""
    if name.startswith(_SUBGROUP_PREFIXES) and not name.startswith("intel_"):
        return SUBGROUPS_ANY
    if name.startswith(_WG_COLLECTIVE_PREFIXES):
        return WG_COLLECTIVES
    return None


# Vendor extensions that give what a Khronos name gates: code guarded by one may use it
# (`#if defined(cl_amd_fp64) || defined(cl_khr_fp64)` around `double`, common in AMD-era code).
# cl_intel_subgroups declares the sub-group built-ins and `memory_scope_sub_group` that
# cl_khr_subgroups and __opencl_c_subgroups gate (clang-19's opencl-c-base.h: one
# `defined(cl_intel_subgroups) || defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)`
# test for all three); the cl_khr_subgroup_* extensions' built-ins are not among them.
_INTEL_SUBGROUPS = frozenset({"cl_intel_subgroups"})
VENDOR_EQUIVALENTS: dict[str, frozenset[str]] = {"cl_khr_fp64": frozenset({"cl_amd_fp64"}),
                                                 "cl_khr_subgroups": _INTEL_SUBGROUPS,
                                                 "__opencl_c_subgroups": _INTEL_SUBGROUPS}


@cache
def implied_by(name: str) -> frozenset[str]:
    """Names whose being defined implies `name` (6.2.1 "must also define", equivalents) or
    gives what it gates (a vendor equivalent)."""
    out = {name} | VENDOR_EQUIVALENTS.get(name, frozenset())
    if name in EQUIVALENT:
        out.add(EQUIVALENT[name])
    if name == IMAGES:
        out.add("__IMAGE_SUPPORT__")  # "defined ... if images are supported" (spec, predefined macros)
    changed = True
    while changed:
        changed = False
        for other, info in [*FEATURES.items(), *EXTENSIONS.items()]:
            if other in out or not info.requires:
                continue
            if all(any(n in out for n in alt) for alt in info.requires):
                out.add(other)
                if other in EQUIVALENT:
                    out.add(EQUIVALENT[other])
                changed = True
    return frozenset(out)


def mandatory_in_2_0(name: str) -> bool:
    """OpenCL C 2.0 gives it unconditionally (so `__OPENCL_C_VERSION__ >= 200` guards it)."""
    ext = EXTENSIONS.get(name)
    return name in CORE_2_0 or bool(ext and ext.core_since and ext.core_since <= V2_0 and not ext.requires)


# Present in every preset (core 1.1 extensions): never gated.
BASELINE = frozenset(n for n, e in EXTENSIONS.items() if e.core_since is not None and e.core_since < V1_2)

__all__ = [
    "BASELINE", "CONSTANTS", "DEVICE_ENQUEUE", "FP16", "FP64_ANY", "FUNCTIONS", "GENERIC", "IMAGES",
    "IMAGE_3D_WRITES", "INT32_ATOMICS", "INT64", "PIPES", "PROGRAM_SCOPE", "READ_WRITE_IMAGES", "WG_COLLECTIVES",
    "family_requirement", "implied_by", "int32_atomics_extension", "mandatory_in_2_0",
]  # fmt: skip
