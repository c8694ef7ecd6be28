"""CL3xx on labelled fixtures (tests/rules/fixtures/features/) and unit checks of the gating.

Each fixture starts with `// expect: CL3xx line N` lines (or `// expect: none`), an optional
`// target: PRESET` (target mode when it is not CL1.2) and `// mode: target|portability`.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cllint.analysis.diagnostics import Applicability
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
                      options={"mode": mode} if mode else {})
    rules = [r for r in CL3 if preview or r.group.value != "preview"]
    return sorted(run_rules(ctx, rules), key=lambda d: (d.span.start, d.code))


def lines(source: bytes, diags) -> set[tuple[str, int]]:
    return {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}


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
    src = b"kernel void k(global double *x) { x[0] = 1; }\n"
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


def test_depth_image_type_from_2_0_or_with_the_extension() -> None:
    """image2d_depth_t: OpenCL C 2.0 or newer (with images), or cl_khr_depth_images."""
    src = b"kernel void k(read_only image2d_depth_t d) {}\n"
    (d,) = lint(src, "CL1.2", "target")
    assert d.code == "CL302" and d.message == (
        "type 'image2d_depth_t' needs extension 'cl_khr_depth_images' or feature '__opencl_c_images' "
        "and OpenCL C 2.0 or newer, which target 'CL1.2' does not provide")
    assert d.fix is not None and d.fix.title == (
        "Wrap in '#if defined(cl_khr_depth_images) || (defined(__opencl_c_images) && __OPENCL_C_VERSION__ >= 200)'")
    assert lint(src, "CL2.0") == []
    ctx = RuleContext(file="t.cl", source=src, tree=parse(src),
                      target=Target.preset("CL3.0").apply_overrides("+__opencl_c_images"), options={"mode": "target"})
    assert run_rules(ctx, CL3) == []
    # portability: a feature macro is defined from 2.0 on only, so `#ifdef __opencl_c_images` guards it
    for guard in (b"#ifdef __opencl_c_images", b"#ifdef cl_khr_depth_images",
                  b"#if __OPENCL_C_VERSION__ >= 200 && defined(__opencl_c_images)"):
        assert lint(guard + b"\n" + src + b"#endif\n") == [], guard
    (port,) = lint(src)
    assert port.message == ("use of 'image2d_depth_t' is not guarded by 'cl_khr_depth_images' or "
                            "'__opencl_c_images' and '__OPENCL_C_VERSION__ >= 200'")


def test_double_literal_preview() -> None:
    src = b"kernel void k(global float *x) { x[0] = x[1] * 0.5; x[2] = 0.1; }\n"
    diags = [d for d in lint(src, preview=True) if d.code == "CL308"]
    assert [d.message for d in diags] == ["floating literal '0.5' has type 'double'; use '0.5f'",
                                          "floating literal '0.1' has type 'double'; use '0.1f'"]
    assert [d.fix.applicability for d in diags] == [Applicability.SAFE, Applicability.UNSAFE]
    assert not [d for d in lint(src, "CL3.0", preview=True) if d.code == "CL308"]  # float on that target


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
