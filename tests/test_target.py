"""Target profiles: versions, presets, 6.2.1 implications, overrides, macros, device strings."""

import pytest

from cllint.analysis.features import FEATURES, Version
from cllint.analysis.target import PRESETS, Target, TargetError


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.2", (1, 2)),
        ("CL1.2", (1, 2)),
        ("cl2.0", (2, 0)),
        ("120", (1, 2)),
        ("300", (3, 0)),
        ("OpenCL C 1.2 pocl", (1, 2)),
        ("OpenCL C 1.2 ", (1, 2)),
        ("OpenCL C 3.0 PoCL", (3, 0)),
    ],
)
def test_version_parse(text: str, expected: tuple[int, int]) -> None:
    assert Version.parse(text) == Version(*expected)


def test_version_order_and_packed() -> None:
    assert Version(1, 2) < Version(2, 0) < Version(3, 0)
    assert Version.from_packed(3 << 22) == Version(3, 0)
    assert Version(1, 2).number == 120 and Version(1, 2).std == "CL1.2"
    with pytest.raises(ValueError):
        Version.parse("banana")


def test_presets() -> None:
    cl12 = Target.preset("CL1.2")
    assert cl12.version == Version(1, 2)
    assert "__opencl_c_images" in cl12.features and "cl_khr_fp64" not in cl12.extensions
    assert "cl_khr_global_int32_base_atomics" in cl12.extensions
    assert Target.preset("CL1.0").extensions == frozenset()
    # a full-profile 3.0 device: 64-bit integers are mandatory there, nothing else optional
    assert Target.preset("CL3.0").features == frozenset({"__opencl_c_int64"})
    cl20, all30 = Target.preset("CL2.0"), Target.preset("cl3.0-ALL")
    assert "__opencl_c_generic_address_space" in cl20.features
    assert "__opencl_c_subgroups" not in cl20.features
    assert cl20.features <= all30.features and cl20.extensions <= all30.extensions
    assert {"cl_khr_fp64", "cl_khr_fp16", "cl_khr_int64_base_atomics"} <= all30.extensions
    assert Target.preset("1.2") == cl12
    assert set(PRESETS) >= {"CL1.2", "CL2.0", "CL3.0", "CL3.0-all"}


def test_unknown_preset_suggests() -> None:
    with pytest.raises(TargetError, match=r"unknown target 'CL1\.3' \(did you mean 'CL1\.2'\?\)"):
        Target.preset("CL1.3")


def test_spec_implications_when_adding() -> None:
    # 6.2.1: 3d_image_writes and read_write_images need images; device_enqueue needs generic
    # and program-scope globals; pipes needs generic.
    t = Target.preset("CL3.0").apply_overrides("+__opencl_c_3d_image_writes")
    assert {"__opencl_c_3d_image_writes", "__opencl_c_images", "__opencl_c_int64"} == t.features
    assert "cl_khr_3d_image_writes" in t.extensions  # equivalent extension kept in sync
    t = Target.preset("CL3.0").apply_overrides("+__opencl_c_device_enqueue")
    assert t.features == {
        "__opencl_c_device_enqueue",
        "__opencl_c_generic_address_space",
        "__opencl_c_program_scope_global_variables",
        "__opencl_c_int64",
    }
    assert "__opencl_c_generic_address_space" in Target.preset("CL3.0").apply_overrides("+__opencl_c_pipes").features


def test_removing_drops_dependants() -> None:
    t = Target.preset("CL3.0-all").apply_overrides("-__opencl_c_generic_address_space")
    assert not t.features & {"__opencl_c_pipes", "__opencl_c_device_enqueue", "__opencl_c_generic_address_space"}
    t = Target.preset("CL3.0-all").apply_overrides("-__opencl_c_images")
    assert not t.features & {"__opencl_c_read_write_images", "__opencl_c_3d_image_writes"}
    assert "cl_khr_3d_image_writes" not in t.extensions


def test_fp64_equivalence_both_ways() -> None:
    t = Target.preset("CL3.0").apply_overrides("+cl_khr_fp64")
    assert "__opencl_c_fp64" in t.features and t.describe() == "CL3.0 +cl_khr_fp64"
    t = t.apply_overrides("-__opencl_c_fp64")
    assert "cl_khr_fp64" not in t.extensions and "__opencl_c_fp64" not in t.features


def test_overrides_left_to_right_and_describe() -> None:
    t = Target.preset("CL3.0").apply_overrides("+__opencl_c_fp64, -cl_khr_fp16")
    assert t.describe() == "CL3.0 +__opencl_c_fp64"  # removing an absent name changes nothing
    t = Target.preset("CL3.0").apply_overrides("+__opencl_c_fp64,-__opencl_c_fp64")
    assert t.features == {"__opencl_c_int64"} and t.describe() == "CL3.0 -__opencl_c_fp64"
    assert Target.preset("CL1.2").apply_overrides("cl_khr_fp16").has("cl_khr_fp16")  # bare = '+'
    assert Target.preset("CL1.2").apply_overrides("+cl_intel_subgroups").has("cl_intel_subgroups")


@pytest.mark.parametrize(
    ("preset", "spec", "message"),
    [
        ("CL3.0", "+__opencl_c_fp46", r"unknown feature '__opencl_c_fp46' \(did you mean '__opencl_c_fp64'\?\)"),
        ("CL3.0", "-cl_khr_fp61", r"unknown extension 'cl_khr_fp61' \(did you mean 'cl_khr_fp64'\?\)"),
        ("CL3.0", "+fp64", r"'fp64' is not a feature"),
        ("CL1.2", "+__opencl_c_pipes", r"'__opencl_c_pipes' needs OpenCL C 2\.0 or newer, target version is 1\.2"),
        ("CL1.2", "+cl_khr_device_enqueue_local_arg_types", r"needed by 'cl_khr_device_enqueue_local_arg_types'"),
        ("CL2.0", "-__opencl_c_pipes", r"'__opencl_c_pipes' is mandatory in OpenCL C 2\.0"),
        ("CL2.0", "-__opencl_c_generic_address_space", r"mandatory in OpenCL C 2\.0"),
        ("CL1.2", "-cl_khr_byte_addressable_store", r"is core in OpenCL C 1\.1 and newer"),
    ],
)
def test_override_errors(preset: str, spec: str, message: str) -> None:
    with pytest.raises(TargetError, match=message):
        Target.preset(preset).apply_overrides(spec)


def test_cl20_images_removable() -> None:
    t = Target.preset("CL2.0").apply_overrides("-__opencl_c_images")
    assert "__IMAGE_SUPPORT__" not in t.predefined_macros()
    assert "cl_khr_depth_images" not in t.extensions


def test_predefined_macros_per_version() -> None:
    m12 = Target.preset("CL1.2").predefined_macros()
    assert m12["__OPENCL_C_VERSION__"] == "120" and m12["__OPENCL_VERSION__"] == "120"
    assert m12["CL_VERSION_1_2"] == "120" and m12["CL_VERSION_2_0"] == "200"  # as clang does
    assert m12["__IMAGE_SUPPORT__"] == "1" and m12["__ENDIAN_LITTLE__"] == "1"
    assert not any(k.startswith("__opencl_c_") for k in m12)  # no feature macros before 2.0
    assert m12["cl_khr_byte_addressable_store"] == "1" and "cl_khr_fp64" not in m12
    m30 = Target.preset("CL3.0").predefined_macros()
    assert m30["__OPENCL_C_VERSION__"] == "300" and "__IMAGE_SUPPORT__" not in m30
    assert [k for k in m30 if k.startswith("__opencl_c_")] == ["__opencl_c_int64"]
    mall = Target.preset("CL3.0-all").predefined_macros()
    assert all(mall[f] == "1" for f in Target.preset("CL3.0-all").features)
    assert mall["__opencl_c_fp64"] == mall["cl_khr_fp64"] == "1"
    assert Target.preset("CL2.0").predefined_macros()["__opencl_c_pipes"] == "1"


def test_has_and_satisfies() -> None:
    cl12 = Target.preset("CL1.2").apply_overrides("+cl_khr_fp64")
    assert cl12.has("__opencl_c_fp64") and cl12.has("__IMAGE_SUPPORT__")
    assert cl12.satisfies(None, [])
    assert cl12.satisfies("1.2", [["cl_khr_fp64"], ["__opencl_c_fp64"]])
    assert not cl12.satisfies("2.0", [])
    assert not cl12.satisfies(None, [["cl_khr_fp16"]])
    # "OpenCL C 2.0, or OpenCL C 3.0 and the generic address space feature"
    need = [["__opencl_c_generic_address_space"]]
    assert Target.preset("CL2.0").satisfies("2.0", need)
    assert not Target.preset("CL3.0").satisfies("2.0", need)
    assert Target.preset("CL3.0-all").satisfies("2.0", need)
    both = [["__opencl_c_images", "cl_khr_depth_images"]]
    assert Target.preset("CL3.0-all").satisfies("1.2", both)
    assert not Target.preset("CL3.0").satisfies("1.2", both)


POCL_EXTS = (
    "cl_khr_byte_addressable_store cl_khr_global_int32_base_atomics   cl_khr_global_int32_extended_atomics "
    "cl_khr_local_int32_base_atomics   cl_khr_local_int32_extended_atomics cl_khr_3d_image_writes "
    "cl_khr_command_buffer cl_khr_spir cl_khr_int64_base_atomics cl_khr_int64_extended_atomics cl_khr_fp64"
)
POCL_FEATURES = [
    (name, 3 << 22)
    for name in (
        "__opencl_c_3d_image_writes", "__opencl_c_images", "__opencl_c_atomic_order_acq_rel",
        "__opencl_c_atomic_order_seq_cst", "__opencl_c_atomic_scope_device",
        "__opencl_c_read_write_images", "__opencl_c_int64", "__opencl_c_fp64",
    )
]


def test_from_device_pocl_3_0() -> None:
    # PoCL 3.0 reports its highest 1.x version in the deprecated query.
    all_versions = [("OpenCL C", 1 << 22), ("OpenCL C", (1 << 22) | (1 << 12)),
                    ("OpenCL C", (1 << 22) | (2 << 12)), ("OpenCL C", 3 << 22)]
    t = Target.from_device("OpenCL C 1.2 PoCL", POCL_FEATURES, POCL_EXTS,
                           all_versions=all_versions, name="device:0")
    assert t.version == Version(3, 0) and t.describe() == "device:0"
    assert t.features == {name for name, _ in POCL_FEATURES}
    assert "__opencl_c_generic_address_space" not in t.features
    assert "cl_khr_command_buffer" in t.extensions
    # Without the version list, the 3.0-only feature query still gives it away.
    assert Target.from_device("OpenCL C 1.2 PoCL", POCL_FEATURES, POCL_EXTS).version == Version(3, 0)


def test_from_device_nvidia_1_2() -> None:
    exts = ("cl_khr_global_int32_base_atomics cl_khr_global_int32_extended_atomics "
            "cl_khr_local_int32_base_atomics cl_khr_local_int32_extended_atomics cl_khr_fp64 "
            "cl_khr_3d_image_writes cl_khr_byte_addressable_store cl_khr_icd cl_khr_gl_sharing "
            "cl_nv_compiler_options cl_nv_device_attribute_query cl_nv_pragma_unroll cl_nv_copy_opts "
            "cl_khr_gl_event cl_nv_create_buffer cl_khr_int64_base_atomics cl_khr_int64_extended_atomics ")
    t = Target.from_device("OpenCL C 1.2 ", [], exts)
    assert t.version == Version(1, 2)
    assert {"__opencl_c_fp64", "__opencl_c_images", "__opencl_c_int64", "__opencl_c_3d_image_writes"} <= t.features
    assert "cl_nv_pragma_unroll" in t.extensions
    assert "__opencl_c_fp64" not in t.predefined_macros() and t.predefined_macros()["cl_khr_fp64"] == "1"


def test_from_device_2_0_and_embedded() -> None:
    t = Target.from_device("OpenCL C 2.0 ", [], "cl_khr_fp16", image_support=False)
    assert "__opencl_c_pipes" in t.features and "__opencl_c_images" not in t.features
    assert "__opencl_c_read_write_images" not in t.features
    t = Target.from_device("OpenCL C 1.2", [], "", profile="EMBEDDED_PROFILE")
    assert "__opencl_c_int64" not in t.features
    assert Target.from_device("garbage", [], "").version == Version(1, 2)  # never raises


def test_feature_table_covers_spec() -> None:
    import re
    from pathlib import Path

    spec = Path("/work/shared/spec/000_d3b3dd38d1ce8d33.txt")
    if not spec.exists():
        pytest.skip("spec not available")
    named = set(re.findall(r"\{(opencl_c_[a-z0-9_]+)\}", spec.read_text()))
    named.discard("opencl_c_feature_name")
    assert {f"__{n}" for n in named} <= set(FEATURES)


def test_all_overrides_read_as_clang_cl_ext() -> None:
    """`-all` / `+all` as in clang's `-cl-ext=-all,+__opencl_c_fp64` (issue 18)."""
    only_fp64 = Target.preset("CL3.0-all").apply_overrides("-all,+__opencl_c_fp64")
    assert only_fp64.features == {"__opencl_c_fp64", "__opencl_c_int64"}  # full profile: see below
    assert "cl_khr_fp64" in only_fp64.extensions and "cl_khr_fp16" not in only_fp64.extensions
    assert "cl_khr_byte_addressable_store" in only_fp64.extensions  # core since 1.1: never removed
    assert only_fp64.describe() == "CL3.0-all -all +__opencl_c_fp64"
    everything = Target.preset("CL3.0").apply_overrides("+all")
    assert everything.features >= Target.preset("CL3.0-all").features
    assert everything.extensions >= Target.preset("CL3.0-all").extensions | {"cl_khr_subgroups"}
    # 2.0 keeps what it makes mandatory; a 1.2 target gets no feature newer than 1.2
    assert Target.preset("CL2.0").apply_overrides("-all").has("__opencl_c_generic_address_space")
    cl12 = Target.preset("CL1.2").apply_overrides("+all")
    assert cl12.has("cl_khr_fp64") and not cl12.has("__opencl_c_generic_address_space")
    assert not cl12.has("cl_khr_subgroups")  # an OpenCL C 2.0 extension
    # later names win over `all`, either way round
    assert not Target.preset("CL3.0").apply_overrides("+all,-cl_khr_fp16").has("cl_khr_fp16")
    assert Target.preset("CL3.0-all").apply_overrides("-all").features == {"__opencl_c_int64"}


def test_minus_all_keeps_64_bit_integers_of_a_full_profile_target() -> None:
    """Spec 6.2.1: compilers for full-profile devices always define `__opencl_c_int64`, and
    clang-19 keeps it under `-cl-ext=-all`; only an embedded target lacks it."""
    assert Target.preset("CL3.0").apply_overrides("-all").has("__opencl_c_int64")
    assert Target.preset("CL1.2").apply_overrides("-all").has("__opencl_c_int64")
    assert not Target.preset("CL3.0").apply_overrides("-__opencl_c_int64").has("__opencl_c_int64")
    embedded = Target.from_device("OpenCL C 1.2", profile="EMBEDDED_PROFILE")
    assert not embedded.apply_overrides("-all").has("__opencl_c_int64")
