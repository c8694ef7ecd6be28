"""CL302 on writes narrower than 32 bits on OpenCL C 1.0 without cl_khr_byte_addressable_store
(spec, "Restrictions"; core in 1.1). The labelled kernels are tests/rules/fixtures/gating/tune_r6/;
these pin the message and the silences."""

from __future__ import annotations

from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

CL3 = [r for code, r in all_rules().items() if code.startswith("CL3") and r.group.value != "preview"]


def lint(source: bytes, target: Target | str, mode: str = "target") -> list[tuple[str, int, str]]:
    t = Target.preset(target) if isinstance(target, str) else target
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=t, options={"mode": mode})
    return [(d.code, source.count(b"\n", 0, d.span.start) + 1, d.message) for d in run_rules(ctx, CL3)]


STORE = b"kernel void k(global uchar *o, global short *s) {\n  o[0] = 1;\n  s[1] += 2;\n}\n"


def test_store_through_uchar_pointer_on_1_0() -> None:
    assert lint(STORE, "CL1.0") == [
        ("CL302", 2, "store 'o[0]' of type 'uchar' needs extension 'cl_khr_byte_addressable_store', "
                     "which target 'CL1.0' does not provide"),
        ("CL302", 3, "store 's[1]' of type 'short' needs extension 'cl_khr_byte_addressable_store', "
                     "which target 'CL1.0' does not provide")]


def test_silent_from_1_1_with_the_extension_and_in_portability_mode() -> None:
    assert lint(STORE, "CL1.1") == []
    assert lint(STORE, Target.preset("CL1.0").apply_overrides("+cl_khr_byte_addressable_store")) == []
    assert lint(STORE, "CL3.0", mode="portability") == []


def test_reads_plain_variables_and_wide_types_are_not_stores_it_names() -> None:
    src = (b"kernel void k(global uchar *o, global uchar4 *q, global int *n) {\n"
           b"  uchar c = o[0];\n  c = c + 1;\n  char2 v = (char2)(1, 2);\n  v.x = 3;\n"
           b"  q[0] = (uchar4)(c);\n  n[0] = o[1] + v.y;\n}\n")
    assert lint(src, "CL1.0") == []


def test_increments_struct_fields_and_vector_components() -> None:
    src = (b"typedef struct { int id; uchar tag; } item_t;\n"
           b"kernel void k(global ushort *u, global item_t *it, global char2 *c) {\n"
           b"  u[0]++;\n  --*u;\n  it[0].tag = 1;\n  it[0].id = 2;\n  c[0].x = 3;\n"
           b"  item_t local_item;\n  local_item.tag = 4;\n}\n")
    assert [(code, line) for code, line, _ in lint(src, "CL1.0")] == [
        ("CL302", 3), ("CL302", 4), ("CL302", 5), ("CL302", 7), ("CL302", 9)]


def test_a_guard_silences_the_stores_a_pragma_does_not() -> None:
    guarded = b"kernel void k(global uchar *o) {\n#ifdef cl_khr_byte_addressable_store\n  o[0] = 1;\n#endif\n}\n"
    assert lint(guarded, "CL1.0") == []
    pragma = b"#pragma OPENCL EXTENSION cl_khr_byte_addressable_store : enable\nkernel void k(global uchar *o) { o[0] = 1; }\n"
    assert sorted((code, line) for code, line, _ in lint(pragma, "CL1.0")) == [("CL302", 2), ("CL307", 1)]


# vstore writes through its pointer as `p[i] = v` does (spec "Restrictions" names writes, not
# operators); the labelled kernels are tests/rules/fixtures/gating/tune_r7/b*.
VSTORES = (b"kernel void k(global uchar *o, local short *s, global half *h, global float *f, float4 v) {\n"
           b"  vstore4(convert_uchar4(v), 0, o);\n  vstore2(convert_short2(v.xy), 1, s);\n"
           b"  vstore_half4_rtz(v, 0, h);\n  vstore4(v, 0, f);\n  uchar4 back = vload4(0, o);\n}\n")


def test_vstore_into_byte_short_and_half_pointers_on_1_0() -> None:
    assert lint(VSTORES, "CL1.0") == [
        ("CL302", 2, "built-in 'vstore4' into '__global uchar *' needs extension "
                     "'cl_khr_byte_addressable_store', which target 'CL1.0' does not provide"),
        ("CL302", 3, "built-in 'vstore2' into '__local short *' needs extension "
                     "'cl_khr_byte_addressable_store', which target 'CL1.0' does not provide"),
        ("CL302", 4, "built-in 'vstore_half4_rtz' into '__global half *' needs extension "
                     "'cl_khr_byte_addressable_store', which target 'CL1.0' does not provide")]


def test_vstore_silent_from_1_1_with_the_extension_under_a_guard_and_on_unknown_pointers() -> None:
    assert lint(VSTORES, "CL1.1") == []
    assert lint(VSTORES, Target.preset("CL1.0").apply_overrides("+cl_khr_byte_addressable_store")) == []
    guarded = (b"kernel void k(global uchar *o) {\n#ifdef cl_khr_byte_addressable_store\n"
               b"  vstore2((uchar2)(1, 2), 0, o);\n#endif\n  vstore2((uchar2)(1, 2), 0, nowhere);\n}\n")
    assert lint(guarded, "CL1.0") == []


def test_a_files_own_vstore_is_not_the_built_in() -> None:
    src = (b"void vstore2(uchar2 v, int i, global uchar *p) { }\n"
           b"kernel void k(global uchar *o) { vstore2((uchar2)(1, 2), 0, o); }\n")
    assert lint(src, "CL1.0") == []
