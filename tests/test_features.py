"""CL3xx on labelled fixtures (tests/rules/fixtures/features/) and unit checks of the gating.

Each fixture starts with `// expect: CL3xx line N` lines (or `// expect: none`), an optional
`// target: PRESET` (target mode when it is not CL1.2) and `// mode: target|portability`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cllint.analysis.diagnostics import Applicability, Severity
from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "features"
EXPECT = re.compile(r"^// expect: (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted(FIXTURES.glob("*.cl"))
CL3 = [r for code, r in all_rules().items() if code.startswith("CL3")]


def lint(source: bytes, target: str = "CL1.2", mode: str | None = None, preview: bool = False):
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=Target.preset(target),
                      options={**({"mode": mode} if mode else {}), "preview": preview})
    rules = [r for r in CL3 if preview or r.group.value != "preview"]
    return sorted(run_rules(ctx, rules), key=lambda d: (d.span.start, d.code))


def lines(source: bytes, diags) -> set[tuple[str, int]]:
    return {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}


def use_lines(source: bytes, diags) -> set[tuple[str, int]]:
    """Lines of the reports and of the other uses each names in its notes (CL301 reports a
    need once per function, issue 29)."""
    return lines(source, diags) | {(d.code, source.count(b"\n", 0, n.span.start) + 1) for d in diags
                                   for n in d.notes if n.message.startswith("also used here")}


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_fixture(path: Path) -> None:
    text = path.read_text()
    target = re.search(r"^// target: (\S+)", text, re.M)
    mode = re.search(r"^// mode: (\S+)", text, re.M)
    source = path.read_bytes()
    diags = lint(source, target.group(1) if target else "CL1.2", mode.group(1) if mode else None)
    expected = {(c, int(n)) for c, n in EXPECT.findall(text)}
    assert lines(source, diags) == expected, [(d.code, d.message) for d in diags]


def test_messages_in_both_modes() -> None:
    # (with a float kernel: a program whose every kernel takes double gets one note instead)
    src = b"kernel void f(global float *y) { y[0] = 0; }\nkernel void k(global double *x) { x[0] = 1; }\n"
    (port,) = lint(src)
    assert port.message == "use of 'double' is not guarded by '__opencl_c_fp64' or 'cl_khr_fp64'"
    (tgt,) = lint(src, "CL3.0")
    assert tgt.message == ("type 'double' needs feature '__opencl_c_fp64' or extension 'cl_khr_fp64', "
                           "which target 'CL3.0' does not provide")


def test_wrap_fix_is_safe_on_whole_lines() -> None:
    src = b"kernel void k(global int *o) {\n    generic int *p = o;\n}\n"
    (d,) = lint(src)
    assert d.fix is not None and d.fix.applicability is Applicability.SAFE
    out = src
    for e in sorted(d.fix.edits, key=lambda e: -e.span.start):
        out = out[: e.span.start] + e.replacement.encode() + out[e.span.end :]
    assert out == b"kernel void k(global int *o) {\n#ifdef __opencl_c_generic_address_space\n    generic int *p = o;\n#endif\n}\n"
    assert lint(out) == []


def test_wrap_fix_unsafe_mid_line() -> None:
    src = b"kernel void k(global int *o) { double l = 1; o[0] = l; }\n"
    (d,) = lint(src)
    assert d.fix.applicability is Applicability.UNSAFE


def test_did_you_mean() -> None:
    (d,) = [d for d in lint(b"#ifdef __opencl_c_fp46\n#endif\n") if d.code == "CL305"]
    assert d.message == "unknown feature '__opencl_c_fp46' (did you mean '__opencl_c_fp64'?)"
    assert d.fix is not None and d.fix.edits[0].replacement == "__opencl_c_fp64"


def test_elif_and_else_guards() -> None:
    src = b"""#if defined(__opencl_c_images)
kernel void a(read_only image2d_t i) {}
#elif defined(cl_khr_fp64)
kernel void b(global double *x) {}
#else
kernel void c(global float *x) {}
#endif
#ifndef __opencl_c_generic_address_space
kernel void d(global int *x) {}
#else
kernel void e(global int *x) { generic int *p = x; }
#endif
"""
    assert lint(src) == []


def test_a_vendor_fp64_extension_guards_double() -> None:
    # AMD's cl_amd_fp64 gives `double` as cl_khr_fp64 does: code written for both is guarded
    either = b"""#if defined(cl_amd_fp64) || defined(cl_khr_fp64)
#if defined(cl_amd_fp64)
#pragma OPENCL EXTENSION cl_amd_fp64 : enable
#else
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#endif
double twice(double x) { return 2.0 * x; }
#endif
#ifdef cl_amd_fp64
kernel void k(global double *x) { x[0] = twice(x[1]); }
#endif
"""
    assert lint(either, mode="portability") == []
    # a guard on another vendor's unrelated extension is not one
    other = b"#ifdef cl_amd_media_ops\nkernel void k(global double *x) { x[0] = x[1]; }\n#endif\n"
    assert [d.code for d in lint(other, mode="portability")] == ["CL301"]


def test_depth_image_type_from_2_0_or_with_the_extension() -> None:
    """image2d_depth_t: OpenCL C 2.0 or newer (with images), or cl_khr_depth_images."""
    src = b"kernel void k(read_only image2d_depth_t d) {}\n"
    (d,) = lint(src, "CL1.2", "target")
    assert d.code == "CL302" and d.message == (
        "type 'image2d_depth_t' needs extension 'cl_khr_depth_images' or feature '__opencl_c_images' "
        "and OpenCL C 2.0 or newer, which target 'CL1.2' does not provide")
    assert d.fix is not None and d.fix.title == (
        "Wrap in '#if defined(cl_khr_depth_images) || (defined(__IMAGE_SUPPORT__) && __OPENCL_C_VERSION__ >= 200)'")
    assert lint(src, "CL2.0") == []
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src),
                      target=Target.preset("CL3.0").apply_overrides("+__opencl_c_images"), options={"mode": "target"})
    assert run_rules(ctx, CL3) == []
    # portability: a feature macro is defined from 2.0 on only, so `#ifdef __opencl_c_images` guards it
    for guard in (b"#ifdef __opencl_c_images", b"#ifdef cl_khr_depth_images",
                  b"#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_images)"):
        assert lint(guard + b"\n" + src + b"#endif\n") == [], guard
    # (its only kernel takes an image: the base feature is the program's, said in an information note)
    (port,) = [d for d in lint(src) if d.severity != Severity.INFO]
    assert port.message == ("use of 'image2d_depth_t' is not guarded by 'cl_khr_depth_images' or "
                            "'__IMAGE_SUPPORT__' and '__OPENCL_C_VERSION__ >= 200'")


def test_double_literal_preview() -> None:
    src = b"kernel void k(global float *x) { x[0] = x[1] * 0.5; x[2] = 0.1; }\n"
    diags = [d for d in lint(src, preview=True) if d.code == "CL308"]
    assert [d.message for d in diags] == ["floating literal '0.5' has type 'double'; use '0.5f'",
                                          "floating literal '0.1' has type 'double'; use '0.1f'"]
    assert [d.fix.applicability for d in diags] == [Applicability.SAFE, Applicability.UNSAFE]
    # Issue 30: on a target without fp64 each literal is clang-19's warning, not a preview hint.
    no_fp64 = [d for d in lint(src, "CL3.0") if d.code == "CL308"]
    assert [(d.severity, d.message.split(",")[0]) for d in no_fp64] == [
        (Severity.WARNING, "double precision constant '0.5' requires cl_khr_fp64 and __opencl_c_fp64"),
        (Severity.WARNING, "double precision constant '0.1' requires cl_khr_fp64 and __opencl_c_fp64")]


def test_never_raises_on_garbage() -> None:
    for src in [b"", b"#if\n", b"kernel void (((", b"\xff\xfe#ifdef cl_khr_\n", b"double" * 1000]:
        for target in ("CL1.2", "CL3.0"):
            lint(src, target, preview=True)


def test_a_local_definition_shadows_a_gated_builtin_with_or_without_focus() -> None:
    """An incremental run looks local definitions up by name instead of collecting
    them all; both must agree that a file's own `read_imagef` is not the built-in."""
    from cllint.analysis.gating.uses import collect_uses

    src = (b"float4 read_imagef(int a, int b) { return (float4)(a); }\n"
           b"kernel void k(global float4 *o) { o[0] = read_imagef(1, 2); }\n"
           b"kernel void j(read_only image2d_t i, sampler_t s, global float4 *o) {\n"
           b"    o[0] = read_imagef(i, s, (int2)(0, 0)); }\n")
    tree = parse(src)
    whole = collect_uses(tree, src)
    focus = [(src.index(b"kernel void k"), len(src) + 1)]
    focused = collect_uses(tree, src, focus=focus)
    assert [u.name for u in whole if u.kind == "built-in"] == []
    assert [u for u in focused if u.start >= focus[0][0]] == [u for u in whole if u.start >= focus[0][0]]
    renamed = src.replace(b"float4 read_imagef(int", b"float4 my_read(int")
    assert any(u.name == "read_imagef" for u in collect_uses(parse(renamed), renamed, focus=focus))


# -- built-in calls judged by the overload they pick ------------------------------------------

INT64_ATOMS = b"""kernel void k(global long *p, global int *q, local long *l) {
    atom_add(p, 1L);
    atom_add(q, 1);
    atom_inc(l);
    atom_min(p, 2L);
}
"""


def _messages(diags, code: str) -> list[str]:
    return [d.message for d in diags if d.code == code]


def test_atom_add_on_long_needs_the_int64_atomics() -> None:
    diags = lint(INT64_ATOMS)
    assert _messages(diags, "CL301") == [
        "use of 'atom_add' on 'long' is not guarded by 'cl_khr_int64_base_atomics' (and 1 more use here)",
        "use of 'atom_min' on 'long' is not guarded by 'cl_khr_int64_extended_atomics'",
    ]
    # one report per need and function: the other use is its note
    assert [n.message for n in diags[0].notes] == ["also used here (use of 'atom_inc' on 'long')"]


def test_atom_add_on_int_and_guarded_uses_stay_silent() -> None:
    assert lint(b"kernel void k(global int *q, global uint *u) { atom_add(q, 1); atom_inc(u); }\n") == []
    guarded = (b"#ifdef cl_khr_int64_base_atomics\n"
               b"kernel void k(global long *p) { atom_add(p, 1L); atom_cmpxchg(p, 0L, 1L); }\n#endif\n")
    assert lint(guarded) == []
    inner = b"kernel void k(global long *p) {\n#ifdef cl_khr_int64_base_atomics\n    atom_add(p, 1L);\n#endif\n}\n"
    assert lint(inner) == []


def test_unknown_argument_types_keep_the_name_requirement() -> None:
    """Precision first: an argument the model cannot type is no reason to report."""
    for call in (b"atom_add(COUNTER, 1)", b"atom_add(undeclared, 1L)", b"atom_add((global T *)p, 1)"):
        src = b"kernel void k(global long *p) { " + call + b"; }\n"
        assert not [d for d in lint(src) if "atom_add" in d.message], call


def test_a_declaration_in_another_arm_is_a_guess() -> None:
    """The model keeps one of two alternative typedefs; the call must not be judged by it."""
    src = (b"#ifndef cl_khr_int64_base_atomics\ntypedef int cnt_t;\n#else\ntypedef long cnt_t;\n#endif\n"
           b"kernel void k(global cnt_t *p) { atom_inc(p); }\n")
    assert lint(src) == []
    enclosing = b"#ifdef USE_COUNTERS\ntypedef long cnt_t;\nkernel void k(global cnt_t *p) { atom_inc(p); }\n#endif\n"
    assert _messages(lint(enclosing), "CL301") == [
        "use of 'atom_inc' on 'long' is not guarded by 'cl_khr_int64_base_atomics'"]


def test_int64_atomics_in_target_mode() -> None:
    lacking = Target.preset("CL1.2").apply_overrides("-cl_khr_int64_base_atomics,-cl_khr_int64_extended_atomics")
    having = Target.preset("CL1.2").apply_overrides("+cl_khr_int64_base_atomics,+cl_khr_int64_extended_atomics")
    for target, expected in ((lacking, 3), (having, 0)):
        ctx = RuleContext(file="t.cl", source=INT64_ATOMS, tree=parse(INT64_ATOMS), target=target,
                          options={"mode": "target"})
        got = [d for d in run_rules(ctx, CL3) if d.code == "CL302"]
        assert len(got) == expected, [d.message for d in got]
    ctx = RuleContext(file="t.cl", source=INT64_ATOMS, tree=parse(INT64_ATOMS), target=lacking,
                      options={"mode": "target"})
    assert _messages(run_rules(ctx, CL3), "CL302")[0] == (
        "built-in 'atom_add' on 'long' needs extension 'cl_khr_int64_base_atomics', "
        f"which target '{lacking.describe()}' does not provide")


def _subgroups_target(*extra: str) -> Target:
    return Target.preset("CL3.0").apply_overrides(",".join(("+__opencl_c_subgroups", "+cl_khr_subgroups", *extra)))


def test_sub_group_broadcast_on_a_vector_needs_the_extended_types() -> None:
    src = (b"kernel void k(global char2 *o, char2 c, global int *r, int i, char s) {\n"
           b"    o[0] = sub_group_broadcast(c, 0);\n"
           b"    r[0] = sub_group_broadcast(i, 0);\n"
           b"    r[1] = sub_group_reduce_add(s);\n}\n")
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src), target=_subgroups_target(), options={"mode": "target"})
    (d,) = run_rules(ctx, CL3)
    assert d.code == "CL302" and src.count(b"\n", 0, d.span.start) == 1
    assert d.message.startswith("built-in 'sub_group_broadcast' on 'char2' needs feature '__opencl_c_subgroups' "
                                "and extension 'cl_khr_subgroup_extended_types'")
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src),
                      target=_subgroups_target("+cl_khr_subgroup_extended_types"), options={"mode": "target"})
    assert run_rules(ctx, CL3) == []  # `char` picks the `int` reduction where the `char` one is missing


def test_integer_dot_product() -> None:
    src = b"kernel void k(global int *r, char4 a, char4 b, float4 x) { r[0] = dot(a, b); r[1] = dot(x, x); }\n"
    assert _messages(lint(src), "CL301") == ["use of 'dot' on 'char4' is not guarded by 'cl_khr_integer_dot_product'"]


def test_math_on_double_is_reported_at_the_type_only() -> None:
    """`sin(d)` needs fp64 because `d` is a double: the declaration says so, once."""
    src = (b"kernel void g(global float *f) { f[0] = 0; }\n"
           b"kernel void k(global double *d, global float *f) { d[0] = sin(d[1]); f[0] = sin(f[1]); f[1] = sin(1.0); }\n")
    assert _messages(lint(src), "CL301") == ["use of 'double' is not guarded by '__opencl_c_fp64' or 'cl_khr_fp64'"]
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src), target=Target.preset("CL3.0"),
                      options={"mode": "target"})
    assert len(_messages(run_rules(ctx, CL3), "CL302")) == 1


def test_explicit_atomics_without_a_scope_need_the_device_scope() -> None:
    src = (b"kernel void k(global atomic_int *a) {\n"
           b"    atomic_fetch_add_explicit(a, 1, memory_order_relaxed);\n"
           b"    atomic_fetch_add_explicit(a, 1, memory_order_relaxed, memory_scope_work_group);\n"
           b"    atomic_load_explicit(a, memory_order_relaxed);\n}\n")
    target = Target.preset("CL3.0").apply_overrides("+__opencl_c_generic_address_space")
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src), target=target, options={"mode": "target"})
    diags = run_rules(ctx, CL3)
    assert [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in diags] == [("CL302", 2), ("CL302", 4)]
    assert diags[0].message.startswith("built-in 'atomic_fetch_add_explicit' with 3 arguments needs feature "
                                       "'__opencl_c_atomic_scope_device'")
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src), target=Target.preset("CL3.0-all"),
                      options={"mode": "target"})
    assert run_rules(ctx, CL3) == []


def test_a_declared_type_changed_by_an_edit_is_followed() -> None:
    """The gating memo keeps a statement's uses by its text: `atom_add(r, 1);` stays the
    same while the declaration above it changes, so the overload is picked per run."""
    from cllint.analysis.db import Change, Host, TextEdit
    from cllint.analysis.lint import LintOptions

    src = (b"kernel void k(global long *p, global int *q) {\n    global long *r = p;\n    atom_add(r, 1);\n}\n"
           b"kernel void other(global float *o) { o[0] = 1.0f; }\n")
    options = LintOptions(target=Target.preset("CL1.2"))

    def fresh(text: bytes) -> list:
        h = Host(options)
        h.set_file("f", text)
        return h.snapshot().diagnostics("f")

    host = Host(options)
    host.set_file("f", src)
    assert [d.code for d in host.snapshot().diagnostics("f")] == ["CL301"]
    text = src
    for old, new in ((b"global long *r = p;", b"global int *r = q;"), (b"global int *r = q;", b"global long *r = p;")):
        at = text.index(old)
        host.apply_change(Change(edits={"f": [TextEdit(at, at + len(old), new)]}))
        text = text[:at] + new + text[at + len(old):]
        got = host.snapshot().diagnostics("f")
        assert got == fresh(text)
        assert host.snapshot().lint_stats("f")["reanalysed"] == 1  # `k` alone: the memo served
        assert [d.code for d in got] == ([] if b"int *r" in text else ["CL301"])


def test_unknown_extension_is_reported_only_as_a_typo() -> None:
    """Extension names are open (PoCL defines cl_khr_int64); feature names are not (6.2.1)."""
    src = b"#ifdef cl_khr_int64\n#endif\n#ifdef cl_khr_subgroup_balot\n#endif\n#ifdef __opencl_c_mystery\n#endif\n"
    got = [(d.message, d.fix.edits[0].replacement if d.fix else None) for d in lint(src) if d.code == "CL305"]
    assert got[0] == ("unknown extension 'cl_khr_subgroup_balot' (did you mean 'cl_khr_subgroup_ballot'?)",
                      "cl_khr_subgroup_ballot")
    assert len(got) == 2 and got[1][0].startswith("unknown feature '__opencl_c_mystery'")


def test_guard_never_true_names_the_condition_as_written() -> None:
    """An optional extension may be absent as well as present: `#ifndef cl_khr_fp16` can be true."""
    assert [d for d in lint(b"#ifndef cl_khr_fp16\nint x;\n#endif\n", "CL3.0-all") if d.code == "CL306"] == []
    (d,) = [d for d in lint(b"#ifdef __opencl_c_fp64\nint x;\n#endif\n", "CL1.2", "target") if d.code == "CL306"]
    assert d.message == "condition 'defined(__opencl_c_fp64)' is never true for OpenCL C 1.2 (target 'CL1.2')"
    src = b"#if !defined(cl_khr_byte_addressable_store)\nint x;\n#endif\n"  # core since 1.1
    (d,) = [d for d in lint(src, "CL1.2", "target") if d.code == "CL306"]
    assert d.message.startswith("condition '!defined(cl_khr_byte_addressable_store)' is never true")


def test_double_literal_stored_into_a_double_is_meant() -> None:
    src = (b"kernel void k(global double *d, global float *f, double a) {\n"
           b"    d[0] = 0.5;\n    d[1] += (1.0e-3 * a);\n    f[0] = f[1] * 0.5;\n    d[2] = f[0] * 0.25;\n}\n")
    got = [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint(src, preview=True) if d.code == "CL308"]
    assert got == [("CL308", 4)]  # f[1] * 0.5 computes in double and stores into a float


def test_preprocessor_view_built_for_a_context_is_the_files_own() -> None:
    """`preprocessor_view` without the driver's view memoised on `id(ctx.tree)` and the
    text: a second file with the same text (or a new tree at a freed tree's address) got
    the first file's view, its spans naming the other file."""
    from types import SimpleNamespace

    from cllint.analysis.gating.guards import preprocessor_view

    src = b'#include "missing.h"\nkernel void k(global int *o) { o[0] = 1; }\n'
    tree = parse(src)
    views = [preprocessor_view(SimpleNamespace(preprocessor=None, tree=tree, target=Target.preset("CL1.2"),
                                               source=src, file=name)) for name in ("a.cl", "b.cl")]
    assert [v.file_id for v in views] == ["a.cl", "b.cl"]


STATIC_LOCALS = b"""kernel void k(global int *o) {
    static global int a;
    static int b;
    static constant int c = 1;
    static private int e;
    int f = 0;
    o[0] = a + b + c + e + f;
}
"""


def test_static_locals_need_2_0_and_program_scope_globals_unless_constant() -> None:
    """Spec 6.8 (storage-class specifiers): 1.x forbids `static` inside a function; from 2.0 a
    static local lives in the constant space, or the global one where program-scope globals
    are supported. clang-19 agrees line by line; `static private` is wrong everywhere."""
    assert lines(STATIC_LOCALS, lint(STATIC_LOCALS, "CL1.2", "target")) == {("CL303", n) for n in (2, 3, 4)}
    cl30 = lint(STATIC_LOCALS, "CL3.0")
    assert lines(STATIC_LOCALS, cl30) == {("CL302", 2), ("CL302", 3)}
    assert cl30[0].message == ("static variable 'a' needs feature '__opencl_c_program_scope_global_variables', "
                               "which target 'CL3.0' does not provide")
    assert lint(STATIC_LOCALS, "CL2.0") == [] and lint(STATIC_LOCALS, "CL3.0-all") == []
    (d,) = [d for d in lint(STATIC_LOCALS) if d.code == "CL301"]
    assert d.message == ("static local variable 'a' is not guarded by '__opencl_c_program_scope_global_variables'"
                         " (and 1 more use here)")
    assert [n.message for n in d.notes] == ["also used here (static local variable 'b')"]


MACRO_TYPES = b"""#ifdef cl_khr_fp64
#define REAL double
#else
#define REAL float
#endif
#define ACC double
#define HALF_T half
kernel void k(global REAL *r, global ACC *a,
              global HALF_T *h) {
    ACC t = 0;
    HALF_T v = 1;
    REAL s = r[0];
    r[0] = s + (REAL)t + v;
}
kernel void z(global float *y) { y[0] = 0; }
"""


def test_types_spelled_through_macros() -> None:
    """`#define ACC double` then `ACC t;`: the compiler sees `double` where `ACC` is used
    (clang-19: "use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support" on
    lines 8 and 10 for CL3.0 -cl-ext=-all, and the half variable on line 11). A guard around
    the `#define` counts (REAL), and a pointer to half is no half value (line 9)."""
    assert lines(MACRO_TYPES, lint(MACRO_TYPES, "CL3.0")) == {("CL302", 8), ("CL302", 10), ("CL302", 11)}
    assert lint(MACRO_TYPES, "CL3.0")[0].message == (
        "type 'double' through macro 'ACC' needs feature '__opencl_c_fp64' or extension 'cl_khr_fp64', "
        "which target 'CL3.0' does not provide")
    portable = lint(MACRO_TYPES)
    assert {(c, n) for c, n in use_lines(MACRO_TYPES, portable) if c == "CL301"} == {
        ("CL301", 8), ("CL301", 10), ("CL301", 11)}
    assert [d for d in lint(MACRO_TYPES, "CL3.0-all") if d.code != "CL309"] == []


def test_macro_defined_in_a_dead_arm_or_for_another_target_is_silent() -> None:
    src = (b"#if 0\n#define REAL double\n#else\n#define REAL float\n#endif\n"
           b"#ifdef __opencl_c_fp64\n#define ACC double\n#endif\n"
           b"kernel void k(global REAL *r) {\n#ifdef ACC\n    ACC t = r[0];\n    r[0] = t;\n#endif\n}\n")
    assert lint(src, "CL3.0") == [] and lint(src) == []


def test_each_parameter_line_of_a_head_is_reported() -> None:
    """clang-19 reports every parameter whose type the target lacks; one report per line."""
    src = b"kernel void k(global double *a,\n              global double *b) { a[0] = b[0]; }\n"
    assert lines(src, lint(src, "CL3.0")) == {("CL302", 1), ("CL302", 2)}


HALF_ACCESS = b"""kernel void k(global half *h, global float *f) {
    h[0] = f[0];
    f[1] = h[1];
    f[2] = *(h + 1);
    global half *q = &h[2];
    f[3] = sizeof(h[0]) + vload_half(0, q);
    vstore_half(f[4], 1, h);
}
"""


def test_loads_and_stores_through_half_pointers() -> None:
    """Spec 6.1.1.1: without cl_khr_fp16 a half buffer is read and written with vload_half and
    vstore_half only; clang-19 rejects lines 2-4 ("assigning directly to" / "loading directly
    from pointer to type 'half'") with -cl-ext=-all, and without the pragma even with the
    extension. Taking an element's address or its size is neither."""
    diags = lint(HALF_ACCESS, "CL3.0")
    assert lines(HALF_ACCESS, diags) == {("CL302", 2), ("CL302", 3), ("CL302", 4)}
    assert diags[0].message == ("store 'h[0]' of type 'half' needs extension 'cl_khr_fp16', "
                                "which target 'CL3.0' does not provide")
    assert diags[1].message.startswith("load 'h[1]' of type 'half' needs")
    with_fp16 = lint(HALF_ACCESS, "CL3.0-all")
    assert lines(HALF_ACCESS, with_fp16) == {("CL309", 2), ("CL309", 3), ("CL309", 4)}
    enabled = b"#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" + HALF_ACCESS
    assert lint(enabled, "CL3.0-all") == []


FUNCTION_MACROS = b"""#define CVT(x) ((half)(x))
#define DCAST(x) ((double)(x))
#define HPTR(p) ((__global half *)(p))
#define real double
#define ZERO ((real)0)
kernel void k(global float *f, global half *h) {
    f[0] = (float)CVT(f[1]);
    f[2] = (float)DCAST(f[3]);
    vstore_half(1.0f, 0, HPTR(h));
    f[4] = (float)ZERO;
#if 0
    f[5] = DCAST(f[6]);
#endif
}
"""


def test_types_spelled_in_function_like_and_expression_macros() -> None:
    """clang-19 (-cl-ext=-all) rejects the cast to half (7), the double casts (8, 10, through
    a chain of macros), not the cast to a half pointer (9) nor the dead arm."""
    assert lines(FUNCTION_MACROS, lint(FUNCTION_MACROS, "CL3.0")) == {("CL302", 7), ("CL302", 8), ("CL302", 10)}


def test_half_vectors_and_half_fields() -> None:
    """Only scalar `half` may name storage without cl_khr_fp16: `half4 *` is an unknown type to
    clang-19 (its header declares the vectors with the extension only). A `half` field is
    storage; reading or writing it is a load or a store, wherever the record lives."""
    vec = b"kernel void k(global half *h, global half4 *v) { vstore_half(1.0f, 0, h); }\n"
    assert _messages(lint(vec, "CL3.0"), "CL302") == [
        "type 'half4' needs extension 'cl_khr_fp16', which target 'CL3.0' does not provide"]
    rec = (b"typedef struct { float x; half h; } rec_t;\n"
           b"kernel void k(global rec_t *r, global float *o) {\n"
           b"    o[0] = r->h;\n    r[1].h = o[1];\n    o[2] = r[2].x;\n    global half *p = &r->h;\n}\n")
    assert lines(rec, lint(rec, "CL3.0")) == {("CL302", 3), ("CL302", 4)}


def test_built_ins_and_constants_through_macros() -> None:
    """A macro body naming a 2.0 built-in or a gated constant: clang-19 rejects the line that
    uses the macro. The body's built-in needs what its name needs over every overload, and a
    function the file defines shadows the built-in."""
    src = (b"#define SYNC() work_group_barrier(CLK_LOCAL_MEM_FENCE)\n"
           b"#define LANE get_sub_group_local_id()\n"
           b"int sub_group_reduce_add(int x) { return x; }\n"
           b"#define SG(x) sub_group_reduce_add(x)\n"
           b"kernel void k(global int *o) {\n    SYNC();\n    o[0] = LANE;\n    o[1] = SG(o[2]);\n}\n")
    diags = lint(src, "CL1.2", "target")
    assert lines(src, diags) == {("CL303", 6), ("CL302", 7)}
    assert diags[0].message == ("built-in 'work_group_barrier' through macro 'SYNC' needs OpenCL C 2.0 or newer, "
                                "target 'CL1.2' is OpenCL C 1.2")
    assert lines(src, lint(src, "CL3.0")) == {("CL302", 7)}


def test_a_half_variable_is_reported_once_not_at_each_use() -> None:
    """clang-19 rejects `half t` where it is declared and is silent about `h[i] = t` and
    `u = h[1]`; a load or store with no half variable in it is still reported."""
    src = (b"kernel void k(global half *h, global float *o) {\n    half t = h[0];\n    h[1] = t;\n"
           b"    o[0] = h[2] + t;\n    h[3] = h[4];\n}\n")
    assert lines(src, lint(src, "CL1.2", "target")) == {("CL302", 2), ("CL302", 5)}


def test_guard_never_true_leaves_version_switches_alone() -> None:
    """Dead on 1.2 by the condition's own version test: meant for other versions. A feature
    macro no 1.2 device defines, behind a version test that 1.2 passes, is still reported."""
    switch = b"#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_generic_address_space)\nint x;\n#endif\n"
    assert [d for d in lint(switch, "CL1.2", "target") if d.code == "CL306"] == []
    passed = b"#if __OPENCL_C_VERSION__ >= 120 && defined(__opencl_c_fp64)\nint x;\n#endif\n"
    assert [d.code for d in lint(passed, "CL1.2", "target")] == ["CL306"]


def test_below_2_0_a_variable_outside_constant_is_reported_once(tmp_path: Path) -> None:
    """A full lint at 1.2 gives one error per declaration, CL110, on the lines clang-19 gives
    (the version family alone still says CL303, above: each family keeps its report)."""
    import json
    import subprocess
    import sys

    path = tmp_path / "statics.cl"
    path.write_bytes(b"global int total = 0;\n" + STATIC_LOCALS)
    for flag in ("--std", "--target"):
        done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                               "--exit-zero", flag, "CL1.2", str(path)], capture_output=True, text=True, check=True)
        got = sorted((r["code"], r["line"]) for r in json.loads(done.stdout) if r["severity"] == "error")
        assert got == [("CL110", n) for n in (1, 3, 4, 5, 6)], flag
