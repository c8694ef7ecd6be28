"""The built-in catalogue: generated data, loader lookups, `cllint builtins`, clang cross-check."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.analysis.catalogue import Builtin, Overload, catalogue, spec_url
from cllint.analysis.features import V2_0, version_requirement
from cllint.analysis.target import Target
from cllint.cli.main import main

REPO = Path(__file__).resolve().parent.parent
SPEC = REPO / ".." / "shared" / "spec" / "000_d3b3dd38d1ce8d33.txt"
HEADER = Path("/usr/lib/llvm-19/lib/clang/19/include/opencl-c.h")


def sigs(name: str) -> set[str]:
    return {o.signature for o in catalogue().function(name).overloads}


def test_loaded_once_and_frozen() -> None:
    cat = catalogue()
    assert cat is catalogue()
    with pytest.raises(AttributeError):
        cat.function("sin").name = "cos"  # type: ignore[misc]
    assert cat.function("no_such_builtin") is None


def test_gentype_expansion_in_math() -> None:
    s = sigs("sin")
    assert "float (float)" in s and "float16 (float16)" in s and "double3 (double3)" in s
    assert len(s) == 18  # float, double, half x 6 widths
    fmax = sigs("fmax")
    assert "float4 (float4, float)" in fmax


def test_per_overload_requirements_for_double_and_half() -> None:
    sin = catalogue().function("sin")
    assert sin.requires == () and sin.since == "1.0"
    by_sig = {o.signature: o for o in sin.overloads}
    assert sin.overload_requires(by_sig["double (double)"]) == (("__opencl_c_fp64",), ("cl_khr_fp64",))
    assert sin.overload_requires(by_sig["half2 (half2)"]) == (("cl_khr_fp16",),)
    assert sin.overload_requires(by_sig["float (float)"]) == ()


def test_address_space_variants_and_generic_pointer() -> None:
    fract = catalogue().function("fract")
    by_sig = {o.signature: o for o in fract.overloads}
    for space in ("__global", "__local", "__private"):
        assert f"float4 (float4, {space} float4 *)" in by_sig
    generic = by_sig["float4 (float4, float4 *)"]
    assert fract.overload_since(generic) == "2.0"
    assert fract.overload_requires(generic) == (("__opencl_c_generic_address_space",),)


def test_integer_sgentype_and_version() -> None:
    clamp = catalogue().function("clamp")
    assert "uchar4 (uchar4, uchar, uchar)" in sigs("clamp")
    assert catalogue().function("ctz").since == "2.0"
    assert "uint8 (int8)" in sigs("abs")


def test_vector_load_store_names_expanded() -> None:
    cat = catalogue()
    assert "float4 (size_t, const __global float *)" in sigs("vload4")
    assert cat.function("vstore_half3_rtz") is not None
    assert "float8 (size_t, const __constant half *)" in sigs("vload_half8")


def test_deprecation_and_legacy_atomics() -> None:
    cat = catalogue()
    assert cat.function("mem_fence").deprecated == "2.0"
    assert cat.function("barrier").deprecated is None
    add = cat.function("atomic_add")
    assert add.since == "1.1" and add.deprecated == "2.0"
    assert "int (volatile __local int *, int)" in sigs("atomic_add")


def test_c11_atomics() -> None:
    f = catalogue().function("atomic_fetch_add_explicit")
    assert f.category == "atomic"
    assert "int (volatile __global atomic_int *, int, memory_order, memory_scope)" in sigs(f.name)
    ulong = next(o for o in f.overloads if "atomic_ulong" in o.params[0].type)
    assert any("cl_khr_int64_base_atomics" in alt for alt in f.overload_requires(ulong))


def test_images_and_sections() -> None:
    cat = catalogue()
    r = cat.function("read_imagef")
    assert r.category == "image" and r.spec == "built-in-image-read-functions"
    assert "float4 (read_only image2d_t, sampler_t, float2)" in sigs("read_imagef")
    w = cat.function("write_imagef")
    img3d = [o for o in w.overloads if "image3d_t" in o.params[0].type and len(o.params) == 3]
    assert img3d and all(any("3d_image_writes" in m for alt in w.overload_requires(o) for m in alt) for o in img3d)
    assert cat.function("get_global_id").url == spec_url("work-item-functions")


def test_feature_gated_families() -> None:
    cat = catalogue()
    assert cat.function("enqueue_kernel").requires == (("__opencl_c_device_enqueue",),)
    assert cat.function("to_global").since == "2.0"
    ballot = cat.function("sub_group_ballot")
    assert all("cl_khr_subgroup_ballot" in alt for alt in ballot.requires)
    assert cat.function("sub_group_reduce_add").category == "sub-group"


DEVICE_ENQUEUE = (
    "enqueue_kernel", "enqueue_marker", "get_kernel_work_group_size", "get_kernel_preferred_work_group_size_multiple",
    "get_kernel_sub_group_count_for_ndrange", "get_kernel_max_sub_group_size_for_ndrange", "retain_event",
    "release_event", "create_user_event", "is_valid_event", "set_user_event_status", "capture_event_profiling_info",
    "get_default_queue", "ndrange_1D", "ndrange_2D", "ndrange_3D",
)  # fmt: skip


@pytest.mark.parametrize("name", DEVICE_ENQUEUE)
def test_device_side_enqueue_builtins(name: str) -> None:
    """Every device-side enqueue built-in of 6.15.16, including names the spec breaks with a
    zero-width space for its HTML (`get_kernel_preferred_&#8203;work_group_size_multiple`)."""
    fn = catalogue().function(name)
    assert fn is not None and fn.overloads, name
    assert fn.since == "2.0" or fn.requires, name  # the sub-group queries: cl_khr_subgroups
    assert "\u200b" not in name and all("&#" not in n for n in catalogue().functions)


def test_types_and_constants() -> None:
    cat = catalogue()
    assert cat.type("double").requires == (("__opencl_c_fp64",), ("cl_khr_fp64",))
    assert cat.type("queue_t").since == "2.0"
    assert cat.type("float3") is not None
    assert cat.constant("CLK_LOCAL_MEM_FENCE").type == "cl_mem_fence_flags"
    assert cat.constant("memory_order_relaxed").type == "memory_order"
    assert cat.constant("memory_scope_work_group") is not None
    assert cat.constant("FLT_MAX") is not None
    assert cat.constant("DBL_MAX").requires == (("__opencl_c_fp64",), ("cl_khr_fp64",))
    assert cat.constant("M_PI_F").type == "float"


def overload(b: Builtin, signature: str) -> Overload:
    return next(o for o in b.overloads if o.signature == signature)


def offered(b: Builtin, signature: str, target: str) -> bool:
    """Whether `target` ("CL1.2 +cl_khr_x,+y") has the overload, as signature help asks."""
    std, _, extra = target.partition(" ")
    t = Target.preset(std).apply_overrides(extra) if extra else Target.preset(std)
    o = overload(b, signature)
    return t.satisfies(b.overload_since(o), b.overload_requires(o))


def test_only_write_imageh_needs_fp16() -> None:
    # built-in-image-write-functions: "*write_imageh* requires cl_khr_fp16" names write_imageh
    # alone; the row's write_imagef/i/ui do not need it.
    cat = catalogue()
    for name in ("write_imagef", "write_imagei", "write_imageui"):
        b = cat.function(name)
        for o in b.overloads:
            assert not any("cl_khr_fp16" in alt for alt in b.overload_requires(o)), (name, o.signature)
    h = cat.function("write_imageh")
    assert all(all("cl_khr_fp16" in alt for alt in h.overload_requires(o)) for o in h.overloads)


def test_image3d_writes_are_3d_image_writes_from_any_version() -> None:
    # "OpenCL C 2.0, or OpenCL C 3.0 or newer and __opencl_c_3d_image_writes, or the
    # cl_khr_3d_image_writes extension": no 2.0 floor over the extension alternative.
    for name, color in (("write_imagef", "float4"), ("write_imagei", "int4"), ("write_imageui", "uint4")):
        b = catalogue().function(name)
        sig = f"void (write_only image3d_t, int4, {color})"
        o = overload(b, sig)
        assert b.overload_since(o) == "1.0"
        assert b.overload_requires(o) == (("__opencl_c_3d_image_writes",), ("cl_khr_3d_image_writes",))
        assert offered(b, sig, "CL1.2 +cl_khr_3d_image_writes") and not offered(b, sig, "CL1.2")
        assert offered(b, sig, "CL3.0 +__opencl_c_images,+__opencl_c_3d_image_writes")
        assert offered(b, sig, "CL2.0")
    h = catalogue().function("write_imageh")
    assert h.overload_requires(overload(h, "void (write_only image3d_t, int4, half4)")) == (
        ("__opencl_c_3d_image_writes", "cl_khr_fp16"), ("cl_khr_3d_image_writes", "cl_khr_fp16"))


def test_depth_images_from_2_0_or_with_the_extension() -> None:
    # "OpenCL C 2.0 or newer, or the cl_khr_depth_images extension": the version is an
    # alternative of its own, so 3.0 with images has them and 1.2 needs the extension.
    b = catalogue().function("read_imagef")
    sig = "float (read_only image2d_depth_t, sampler_t, float2)"
    assert b.overload_requires(overload(b, sig)) == (("__OPENCL_C_VERSION__>=200",), ("cl_khr_depth_images",))
    assert not offered(b, sig, "CL1.2") and offered(b, sig, "CL1.2 +cl_khr_depth_images")
    assert offered(b, sig, "CL2.0") and offered(b, sig, "CL3.0 +__opencl_c_images")
    rw = "float (read_write image2d_depth_t, int2)"  # 2.0 already: read_write images alone
    assert b.overload_requires(overload(b, rw)) == (("__opencl_c_read_write_images",),)
    assert offered(b, rw, "CL3.0 +__opencl_c_images,+__opencl_c_read_write_images")
    w = catalogue().function("get_image_width")
    assert offered(w, "int (write_only image2d_array_depth_t)", "CL3.0 +__opencl_c_images")
    for name in ("image2d_depth_t", "image2d_array_depth_t"):
        t = catalogue().type(name)
        assert t.requires == (("cl_khr_depth_images",), ("__opencl_c_images", "__OPENCL_C_VERSION__>=200"))
        assert not Target.preset("CL1.2").satisfies(t.since, t.requires)
        assert Target.preset("CL3.0").apply_overrides("+__opencl_c_images").satisfies(t.since, t.requires)


def test_version_names_are_read_back() -> None:
    names = {n for f in catalogue().functions.values() for o in f.overloads
             for alt in f.overload_requires(o) for n in alt if n.startswith("__OPENCL_C")}
    assert names == {"__OPENCL_C_VERSION__>=200"} and version_requirement(names.pop()) == V2_0
    # sub-groups are the extension or 3.0 with the feature: no version alternative
    assert catalogue().function("sub_group_any").requires == (("__opencl_c_subgroups",), ("cl_khr_subgroups",))


def test_subgroup_extended_types() -> None:
    # sub-group-functions, the cl_khr_subgroup_extended_types note: gentype may also be char,
    # uchar, short, ushort; sub_group_broadcast also takes every vector type.
    cat = catalogue()
    ext = "cl_khr_subgroup_extended_types"
    bc = cat.function("sub_group_broadcast")
    assert {"char (char, uint)", "ushort (ushort, uint)", "char3 (char3, uint)", "int16 (int16, uint)",
            "float2 (float2, uint)", "half8 (half8, uint)", "double4 (double4, uint)"} <= sigs(bc.name)
    assert len(bc.overloads) == 7 + 4 + 11 * 5
    for op in ("reduce_add", "reduce_min", "scan_exclusive_max", "scan_inclusive_add"):
        name = f"sub_group_{op}"
        assert {"char (char)", "uchar (uchar)", "short (short)", "ushort (ushort)"} <= sigs(name)
        assert "char2 (char2)" not in sigs(name)
    for o in bc.overloads:
        added = o.params[0].type not in ("int", "uint", "long", "ulong", "float", "double", "half")
        assert all(ext in alt for alt in bc.overload_requires(o)) == added, o.signature
    assert all("cl_khr_fp16" in alt for alt in bc.overload_requires(overload(bc, "half8 (half8, uint)")))
    assert offered(bc, "char3 (char3, uint)", f"CL3.0 +__opencl_c_subgroups,+{ext}")
    assert not offered(bc, "char3 (char3, uint)", "CL3.0 +__opencl_c_subgroups")
    assert offered(bc, "uchar (uchar, uint)", f"CL2.0 +cl_khr_subgroups,+{ext}")


def test_every_entry_is_well_formed() -> None:
    categories = {"math", "integer", "common", "geometric", "relational", "vector-data", "synchronization",
                  "atomic", "async-copy", "image", "pipe", "enqueue", "work-item", "sub-group", "work-group",
                  "printf", "address-space", "misc", "conversion"}
    for f in catalogue().functions.values():
        assert f.overloads, f.name
        assert f.category in categories, (f.name, f.category)
        assert f.since in {"1.0", "1.1", "1.2", "2.0", "3.0"}, f.name
        for o in f.overloads:
            assert isinstance(o, Overload)
            assert all(p.name and p.type and "<" not in p.type for p in o.params), (f.name, o)


def test_generator_is_deterministic(tmp_path: Path) -> None:
    if not SPEC.is_file():
        pytest.skip(f"spec text not found at {SPEC}")
    out = tmp_path / "builtins.json"
    subprocess.run([sys.executable, str(REPO / "scripts" / "gen_catalogue.py"), str(SPEC), "-o", str(out)],
                   check=True, capture_output=True)
    committed = (REPO / "analysis" / "data" / "builtins.json").read_text(encoding="utf-8")
    assert out.read_text(encoding="utf-8") == committed, "regenerate with scripts/gen_catalogue.py"


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["builtins", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data) == len(catalogue().functions)
    entry = next(e for e in data if e["name"] == "barrier")
    assert {"name", "overloads", "since", "requires", "deprecated", "spec"} <= set(entry)


def test_cli_text_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["builtins", "get_local_id"]) == 0
    out = capsys.readouterr().out
    assert "size_t get_local_id(uint dimindx)" in out
    assert main(["builtins", "not_a_builtin"]) == 2
    assert "not a built-in function" in capsys.readouterr().err
    assert main(["builtins", "--category", "bogus"]) == 2


def test_clang_header_coverage() -> None:
    if not HEADER.is_file():
        pytest.skip(f"{HEADER} absent: apt-get install libclang-common-19-dev")
    proc = subprocess.run([sys.executable, str(REPO / "scripts" / "crosscheck_catalogue.py"), str(HEADER)],
                          capture_output=True, text=True)
    line = next(l for l in proc.stdout.splitlines() if l.startswith("coverage, non-vendor"))
    assert float(line.split()[-1].rstrip("%")) >= 98.0, proc.stdout[:2000]
    assert proc.returncode == 0
