"""Tables of OpenCL C versions, optional features and extensions.

Facts come from the OpenCL C specification: 6.2.1 "Features" (the `__opencl_c_*` table and
the "must also define" rules), 6.2.2 "Extensions" (which `cl_khr_*` were promoted where) and
"Preprocessor Directives and Macros". Requirements are written in disjunctive normal form:
`((a, b), (c,))` means "a and b, or c"; `()` means no requirement. A name may also be a
version floor, `__OPENCL_C_VERSION__>=200` (`version_requirement`).

A feature name in a target stands for a *capability*, whatever the version: a CL1.2 target
with `cl_khr_fp64` also holds `__opencl_c_fp64`. Whether the `__opencl_c_*` macro is
actually predefined is decided by `Target.predefined_macros()`.
"""

from __future__ import annotations

import re
from functools import total_ordering

DNF = tuple[tuple[str, ...], ...]


@total_ordering
class Version:
    """An OpenCL C language version such as 1.2; ordered, hashable."""

    __slots__ = ("major", "minor")
    major: int
    minor: int

    __match_args__ = ("major", "minor")

    def __init__(self, major: int, minor: int) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "major", major)
        set_(self, "minor", minor)

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(major={self.major!r}, minor={self.minor!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.major, self.minor) == (other.major, other.minor)

    def __hash__(self) -> int:
        return hash((self.major, self.minor))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: Version is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: Version is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.major, self.minor))

    @classmethod
    def parse(cls, text: str) -> Version:
        """Accept '1.2', 'CL1.2', '120', 'OpenCL C 1.2 pocl', 'CLC 3.0' and similar.

        Raises ValueError when no version can be read; does not check it is a known one.
        """
        s = text.strip()
        m = re.match(r"^(?:OpenCL\s*C\s*|CLC?\s*)?(\d+)\.(\d+)\b", s, re.IGNORECASE)
        if m:
            return cls(int(m.group(1)), int(m.group(2)))
        m = re.match(r"^(?:CL)?([1-9])([0-9])0$", s, re.IGNORECASE)  # 120, CL300
        if m:
            return cls(int(m.group(1)), int(m.group(2)))
        raise ValueError(f"cannot read an OpenCL C version from {text!r}")

    @classmethod
    def from_packed(cls, value: int) -> Version:
        """Decode a `cl_version` (CL_MAKE_VERSION: major << 22 | minor << 12 | patch)."""
        return cls(value >> 22, (value >> 12) & 0x3FF)

    @property
    def number(self) -> int:
        """The integer used by `__OPENCL_C_VERSION__`: 1.2 -> 120."""
        return self.major * 100 + self.minor * 10

    @property
    def std(self) -> str:
        """The `-cl-std` spelling: 'CL1.2'."""
        return f"CL{self}"

    def __str__(self) -> str:
        return f"{self.major}.{self.minor}"

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Version):
            return NotImplemented
        return (self.major, self.minor) < (other.major, other.minor)


V1_0, V1_1, V1_2, V2_0, V3_0 = (Version(1, 0), Version(1, 1), Version(1, 2), Version(2, 0), Version(3, 0))
# OpenCL C language versions; OpenCL 2.1 and 2.2 devices compile OpenCL C 2.0.
KNOWN_VERSIONS: tuple[Version, ...] = (V1_0, V1_1, V1_2, V2_0, V3_0)


class FeatureInfo:
    __slots__ = ("name", "since", "requires", "core_in_2_0", "extension", "summary")
    name: str
    since: Version  # earliest version in which a device can have the capability
    requires: DNF
    core_in_2_0: bool  # OpenCL C 2.0 provides it unconditionally
    extension: str | None  # extension macro that means the same thing (kept in sync)
    summary: str

    __match_args__ = ("name", "since", "requires", "core_in_2_0", "extension", "summary")

    def __init__(
        self,
        name: str,
        since: Version,
        requires: DNF = (),
        core_in_2_0: bool = False,
        extension: str | None = None,
        summary: str = "",
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "since", since)
        set_(self, "requires", requires)
        set_(self, "core_in_2_0", core_in_2_0)
        set_(self, "extension", extension)
        set_(self, "summary", summary)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"since={self.since!r}, "
                f"requires={self.requires!r}, " f"core_in_2_0={self.core_in_2_0!r}, "
                f"extension={self.extension!r}, " f"summary={self.summary!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.since, self.requires, self.core_in_2_0, self.extension, self.summary)
        theirs = (other.name, other.since, other.requires, other.core_in_2_0, other.extension, other.summary)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.since, self.requires, self.core_in_2_0, self.extension, self.summary))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: FeatureInfo is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: FeatureInfo is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.since, self.requires, self.core_in_2_0, self.extension,
                             self.summary))


class ExtensionInfo:
    __slots__ = ("name", "since", "requires", "core_since", "summary")
    name: str
    since: Version  # first version it is defined for (informational)
    requires: DNF
    core_since: Version | None  # promoted to core: a preset of this version has it
    summary: str

    __match_args__ = ("name", "since", "requires", "core_since", "summary")

    def __init__(
        self,
        name: str,
        since: Version = V1_0,
        requires: DNF = (),
        core_since: Version | None = None,
        summary: str = "",
    ) -> None:
        set_ = object.__setattr__  # immutable: __setattr__ refuses
        set_(self, "name", name)
        set_(self, "since", since)
        set_(self, "requires", requires)
        set_(self, "core_since", core_since)
        set_(self, "summary", summary)

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"since={self.since!r}, "
                f"requires={self.requires!r}, " f"core_since={self.core_since!r}, "
                f"summary={self.summary!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.since, self.requires, self.core_since, self.summary)
        theirs = (other.name, other.since, other.requires, other.core_since, other.summary)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.name, self.since, self.requires, self.core_since, self.summary))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: ExtensionInfo is shared and immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}: ExtensionInfo is shared and immutable")

    def __reduce__(self) -> tuple[type, tuple[object, ...]]:  # pickle without __setattr__
        return (type(self), (self.name, self.since, self.requires, self.core_since, self.summary))


IMAGES = "__opencl_c_images"
GENERIC = "__opencl_c_generic_address_space"
PROGRAM_SCOPE = "__opencl_c_program_scope_global_variables"
FP64 = "__opencl_c_fp64"
INT64 = "__opencl_c_int64"
SUBGROUPS_ANY: DNF = (("__opencl_c_subgroups",), ("cl_khr_subgroups",))

_F = FeatureInfo
FEATURES: dict[str, FeatureInfo] = {
    f.name: f
    for f in [
        # 6.2.1, table of optional features.
        _F("__opencl_c_3d_image_writes", V1_0, ((IMAGES,),), False, "cl_khr_3d_image_writes",
           "write to 3D image objects"),
        _F("__opencl_c_atomic_order_acq_rel", V2_0, (), True, None,
           "atomics with acquire/release memory orders"),
        _F("__opencl_c_atomic_order_seq_cst", V2_0, (), True, None,
           "atomics and fences with sequentially consistent order"),
        _F("__opencl_c_atomic_scope_device", V2_0, (), True, None,
           "atomics and fences with device memory scope"),
        _F("__opencl_c_atomic_scope_all_devices", V2_0, (), True, None,
           "atomics and fences with all-devices memory scope"),
        _F("__opencl_c_device_enqueue", V2_0, ((GENERIC, PROGRAM_SCOPE),), True, None,
           "enqueue work from the device"),
        _F(GENERIC, V2_0, (), True, None, "the unnamed generic address space"),
        _F(FP64, V1_0, (), False, "cl_khr_fp64", "64-bit floating-point types"),
        _F(IMAGES, V1_0, (), False, None, "image types and built-ins"),
        _F(INT64, V1_0, (), False, None, "64-bit integer types"),
        _F("__opencl_c_pipes", V2_0, ((GENERIC,),), True, None, "pipes"),
        _F(PROGRAM_SCOPE, V2_0, (), True, None, "program-scope variables in global memory"),
        _F("__opencl_c_read_write_images", V2_0, ((IMAGES,),), False, None,
           "read_write image kernel arguments"),
        _F("__opencl_c_subgroups", V3_0, (), False, None, "sub-group built-ins"),
        _F("__opencl_c_work_group_collective_functions", V2_0, (), True, None,
           "work-group collective built-ins"),
        # 6.2.1, features defined only together with their extension.
        _F("__opencl_c_integer_dot_product_input_4x8bit_packed", V2_0,
           (("cl_khr_integer_dot_product",),), summary="dot products of packed 4x8-bit integers"),
        _F("__opencl_c_integer_dot_product_input_4x8bit", V2_0,
           (("cl_khr_integer_dot_product",),), summary="dot products of 4x8-bit integer vectors"),
        _F("__opencl_c_kernel_clock_scope_device", V2_0, (("cl_khr_kernel_clock",),),
           summary="device-wide clock"),
        _F("__opencl_c_kernel_clock_scope_work_group", V2_0, (("cl_khr_kernel_clock",),),
           summary="work-group clock"),
        _F("__opencl_c_kernel_clock_scope_sub_group", V2_0, (("cl_khr_kernel_clock",),),
           summary="sub-group clock"),
        _F("__opencl_c_ext_image_unorm_int_2_101010", V2_0,
           (("cl_ext_image_unorm_int_2_101010", IMAGES),), summary="CLK_UNORM_INT_2_101010_EXT"),
        # cl_ext_image_raw10_raw12 (OpenCL extension specification): clang-19 defines the feature
        # macro for spir64 from 2.0 on (analysis/clang19_targets.py), without the extension's.
        _F("__opencl_c_ext_image_raw10_raw12", V2_0, ((IMAGES,),),
           summary="CLK_UNSIGNED_INT_RAW10_EXT and CLK_UNSIGNED_INT_RAW12_EXT image channel types"),
        # cl_ext_float_atomics (OpenCL extension specification; clang knows them too).
        *[
            _F(f"__opencl_c_ext_{fp}_{space}_atomic_{op}", V2_0,
               (("cl_ext_float_atomics", *need),), summary=f"{fp} atomic {op} on {space} memory")
            for fp, need in (("fp16", ("cl_khr_fp16",)), ("fp32", ()), ("fp64", (FP64,)))
            for space in ("global", "local")
            for op in (("add", "min_max", "load_store") if fp == "fp16" else ("add", "min_max"))
        ],
    ]
}

# Features OpenCL C 2.0 gives only when the device supports images.
IMAGE_FEATURES_2_0 = frozenset({IMAGES, "__opencl_c_read_write_images", "__opencl_c_3d_image_writes"})
CORE_2_0 = frozenset(f.name for f in FEATURES.values() if f.core_in_2_0)
# The main 6.2.1 table (not tied to an extension): what `CL3.0-all` turns on.
SPEC_FEATURES = frozenset(list(FEATURES)[:15])

_E = ExtensionInfo
_IMG: DNF = ((IMAGES,),)
EXTENSIONS: dict[str, ExtensionInfo] = {
    e.name: e
    for e in [
        # Promoted to core in OpenCL C 1.1 (still reported and predefined afterwards).
        _E("cl_khr_byte_addressable_store", core_since=V1_1, summary="byte-addressable stores"),
        _E("cl_khr_global_int32_base_atomics", core_since=V1_1),
        _E("cl_khr_global_int32_extended_atomics", core_since=V1_1),
        _E("cl_khr_local_int32_base_atomics", core_since=V1_1),
        _E("cl_khr_local_int32_extended_atomics", core_since=V1_1),
        _E("cl_khr_fp64", summary="double precision"),
        _E("cl_khr_fp16", summary="half precision arithmetic"),
        _E("cl_khr_int64_base_atomics", requires=((INT64,),)),
        _E("cl_khr_int64_extended_atomics", requires=((INT64,),)),
        _E("cl_khr_3d_image_writes", requires=_IMG, core_since=V2_0),
        _E("cl_khr_select_fprounding_mode"),  # deprecated by OpenCL C 1.1
        _E("cl_khr_initialize_memory"),
        _E("cl_khr_spir"),
        _E("cl_khr_il_program"),
        _E("cl_khr_icd"),
        _E("cles_khr_int64", V1_1, summary="64-bit integers on embedded profile devices"),
        _E("cl_khr_depth_images", V1_2, _IMG, core_since=V2_0),
        _E("cl_khr_gl_msaa_sharing", V1_2, _IMG),
        _E("cl_khr_gl_sharing"),
        _E("cl_khr_gl_event"),
        _E("cl_khr_gl_depth_images"),
        _E("cl_khr_image2d_from_buffer", V1_2, _IMG),
        _E("cl_khr_mipmap_image", V2_0, _IMG),
        _E("cl_khr_mipmap_image_writes", V2_0, (("cl_khr_mipmap_image",),)),
        _E("cl_khr_srgb_image_writes", V2_0, _IMG),
        _E("cl_khr_subgroups", V2_0),
        _E("cl_khr_subgroup_ballot", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_clustered_reduce", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_extended_types", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_non_uniform_arithmetic", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_non_uniform_vote", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_rotate", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_shuffle", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_shuffle_relative", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_subgroup_named_barrier", V2_0, SUBGROUPS_ANY),
        _E("cl_khr_work_group_uniform_arithmetic", V2_0),
        _E("cl_khr_async_work_group_copy_fence"),
        _E("cl_khr_device_enqueue_local_arg_types", V2_0, (("__opencl_c_device_enqueue",),)),
        _E("cl_khr_extended_async_copies"),
        _E("cl_khr_extended_bit_ops", V2_0),
        _E("cl_khr_integer_dot_product", V2_0),
        _E("cl_khr_kernel_clock", V2_0),
        _E("cl_khr_priority_hints"),
        _E("cl_khr_throttle_hints"),
        _E("cl_khr_command_buffer"),
        _E("cl_khr_expect_assume"),
        _E("cl_ext_float_atomics", V2_0),
        _E("cl_ext_image_unorm_int_2_101010", V2_0, _IMG),
        # Vendor extensions clang knows; other vendor names are accepted without a table entry.
        _E("cl_amd_media_ops"),
        _E("cl_amd_media_ops2"),
        _E("cl_intel_subgroups", V1_2),
        _E("cl_intel_subgroups_char", V1_2),
        _E("cl_intel_subgroups_short", V1_2),
        _E("cl_intel_subgroups_long", V1_2),
        _E("cl_intel_subgroup_buffer_prefetch", V1_2),
        _E("cl_intel_subgroup_local_block_io", V1_2),
        _E("cl_intel_device_side_avc_motion_estimation", V1_2),
        _E("cl_clang_storage_class_specifiers"),
    ]
}

# Same capability under two names; clang rejects a target where they differ.
EQUIVALENT: dict[str, str] = {}
for _f in FEATURES.values():
    if _f.extension:
        EQUIVALENT[_f.name] = _f.extension
        EQUIVALENT[_f.extension] = _f.name

# Prefixes whose names must be in the tables above (vendor prefixes are open-ended).
STRICT_PREFIXES = ("__opencl_c_", "cl_khr_", "cles_khr_", "cl_ext_")


def requirements(name: str) -> DNF:
    """What a feature or extension needs, in DNF; `()` when nothing or unknown."""
    info = FEATURES.get(name) or EXTENSIONS.get(name)
    return info.requires if info else ()


def is_feature(name: str) -> bool:
    return name.startswith("__opencl_c_")


# A version floor that holds in one alternative of a requirement only, as in "OpenCL C 2.0
# or newer, or the cl_khr_depth_images extension" (the catalogue writes it
# `(("cl_khr_depth_images",), ("__opencl_c_images", "__OPENCL_C_VERSION__>=200"))`):
# spelled as the condition that tests it, it can stand next to macro names in a DNF.
_VERSION_NAME = re.compile(r"^__OPENCL_C_VERSION__>=(\d{3})$")


def version_requirement(name: str) -> Version | None:
    """The version a name like `__OPENCL_C_VERSION__>=200` asks for; None for a macro name."""
    m = _VERSION_NAME.match(name)
    return Version.parse(m.group(1)) if m else None
