"""CL303 on overloads newer than their name (spec "Integer Functions": the integer `clamp` and
`max(gentype, sgentype)` are OpenCL C 1.1; "Built-in Image Sampler-less Read Functions": 1.2).
The labelled kernels are tests/rules/fixtures/gating/tune_r6/; these pin the message and the
silences."""

from __future__ import annotations

from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

CL3 = [r for code, r in all_rules().items() if code.startswith("CL3") and r.group.value != "preview"]


def lint(source: bytes, target: str, mode: str = "target") -> list[tuple[str, str]]:
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=Target.preset(target),
                      options={"mode": mode})
    return [(d.code, d.message) for d in run_rules(ctx, CL3)]


CLAMP = b"kernel void k(global int *o, int lo) { o[0] = clamp(o[1], lo, 7); }\n"


def test_integer_clamp_on_1_0_names_the_overload() -> None:
    assert lint(CLAMP, "CL1.0") == [
        ("CL303", "built-in 'int clamp(int, int, int)' needs OpenCL C 1.1 or newer, "
                  "target 'CL1.0' is OpenCL C 1.0")]


def test_integer_clamp_from_1_1_and_in_portability_mode_is_silent() -> None:
    assert lint(CLAMP, "CL1.1") == []
    assert lint(CLAMP, "CL3.0", mode="portability") == []


def test_float_clamp_on_1_0_is_silent() -> None:
    src = b"kernel void k(global float *f) { f[0] = clamp(f[1], 0.0f, 1.0f); f[1] = max(f[2], 1.0f); }\n"
    assert lint(src, "CL1.0") == []


def test_an_integer_literal_fits_any_integer_parameter() -> None:
    """`clamp(uchar, 0, 255)` is the `uchar` clamp: C's integer constants take the type."""
    src = b"kernel void k(global uchar *c, global int *o) { o[0] = clamp(c[0], 0, 255); }\n"
    assert [m for c, m in lint(src, "CL1.0") if c == "CL303"] == [
        "built-in 'uchar clamp(uchar, uchar, uchar)' needs OpenCL C 1.1 or newer, target 'CL1.0' is OpenCL C 1.0"]


def test_arguments_needing_a_conversion_pick_no_overload() -> None:
    """An `int` with `float` bounds, a `size_t` (no catalogue overload spells it): no overload
    fits exactly, so no floor is guessed."""
    src = (b"kernel void k(global int *o) {\n"
           b"  o[0] = (int)clamp(get_global_id(0), (size_t)0, (size_t)7);\n"
           b"  o[2] = clamp(o[3], 0.0f, 1.0f);\n}\n")
    assert [c for c, _ in lint(src, "CL1.0") if c == "CL303"] == []


def test_unknown_argument_types_are_silent() -> None:
    src = b"kernel void k(global int *o) { o[0] = clamp(UNDECLARED, 0, 1); }\n"
    assert [c for c, _ in lint(src, "CL1.0") if c == "CL303"] == []


def test_version_guard_covers_the_overload() -> None:
    src = (b"kernel void k(global int *o) {\n#if __OPENCL_C_VERSION__ >= 110\n"
           b"  o[0] = clamp(o[1], 0, 1);\n#endif\n}\n")
    assert lint(src, "CL1.0") == []


def test_three_component_vectors_are_reported_at_the_type_only() -> None:
    src = b"kernel void k(global int *o) { int3 v = vload3(0, o); vstore3(clamp(v, 0, 1), 0, o); }\n"
    got = [m for c, m in lint(src, "CL1.0") if c == "CL303"]
    assert got and all("clamp" not in m for m in got)


def test_sampler_less_image_read_on_1_1() -> None:
    src = b"kernel void k(read_only image2d_t i, global float4 *o) { o[0] = read_imagef(i, (int2)(0, 0)); }\n"
    assert lint(src, "CL1.1") == [
        ("CL303", "built-in 'float4 read_imagef(read_only image2d_t, int2)' needs OpenCL C 1.2 or newer, "
                  "target 'CL1.1' is OpenCL C 1.1")]
    assert lint(src, "CL1.2") == []


def test_c11_atomics_on_global_atomic_types_have_no_3_0_floor_on_2_0() -> None:
    src = b"kernel void k(volatile global atomic_int *c) { atomic_fetch_add(c, 1); atomic_store(c, 0); }\n"
    assert [c for c, _ in lint(src, "CL2.0") if c == "CL303"] == []
