"""CL302 on the 32-bit `atom_*` built-ins of OpenCL C 1.0: each needs the int32 atomics extension
of its pointer's address space, base or extended by function (spec "Atomic Function Extensions";
OpenCL C 1.1 made them core). The labelled kernels are tests/rules/fixtures/gating/tune_r7/a*;
these pin the message and the silences."""

from __future__ import annotations

from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

CL3 = [r for code, r in all_rules().items() if code.startswith("CL3") and r.group.value != "preview"]
GLOBAL_BASE = Target.preset("CL1.0").apply_overrides("+cl_khr_global_int32_base_atomics")


def lint(source: bytes, target: Target | str, mode: str = "target") -> list[tuple[str, int, str]]:
    t = Target.preset(target) if isinstance(target, str) else target
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=t, options={"mode": mode})
    return [(d.code, source.count(b"\n", 0, d.span.start) + 1, d.message) for d in run_rules(ctx, CL3)]


HIST = (b"kernel void k(global uint *bins, local uint *lh, global int *g) {\n"
        b"  atom_inc(&lh[0]);\n  atom_add(&bins[1], 2u);\n  atom_min(g, 3);\n}\n")


def test_local_call_on_a_global_only_device_names_space_extension_and_target() -> None:
    assert lint(HIST, GLOBAL_BASE) == [
        ("CL302", 2, "built-in 'atom_inc' on '__local uint *' needs extension "
                     "'cl_khr_local_int32_base_atomics', which target 'CL1.0 +cl_khr_global_int32_base_atomics' "
                     "does not provide"),
        ("CL302", 4, "built-in 'atom_min' on '__global int *' needs extension "
                     "'cl_khr_global_int32_extended_atomics', which target 'CL1.0 +cl_khr_global_int32_base_atomics' "
                     "does not provide")]


def test_each_call_on_a_bare_1_0_device() -> None:
    assert [(code, line) for code, line, _ in lint(HIST, "CL1.0")] == [("CL302", 2), ("CL302", 3), ("CL302", 4)]


def test_silent_from_1_1_with_every_extension_and_in_portability_mode() -> None:
    everything = Target.preset("CL1.0").apply_overrides(
        "+cl_khr_global_int32_base_atomics,+cl_khr_global_int32_extended_atomics,"
        "+cl_khr_local_int32_base_atomics,+cl_khr_local_int32_extended_atomics")
    assert lint(HIST, everything) == []
    assert lint(HIST, "CL1.1") == []
    assert lint(HIST, "CL1.2") == []
    assert lint(HIST, "CL3.0", mode="portability") == []


def test_unknown_or_private_pointers_and_macros_stay_silent() -> None:
    src = (b"#define BUMP(p) atom_inc(p)\n"
           b"void h(int *p) { atom_inc(p); }\n"  # private on 1.0: no overload, not a guess
           b"kernel void k(local uint *lh, global uint *g) {\n  BUMP(&lh[0]);\n  atom_inc(nowhere);\n"
           b"  atom_add(g, 1u);\n}\n")
    assert lint(src, GLOBAL_BASE) == []


def test_64_bit_calls_keep_their_int64_extension() -> None:
    src = b"kernel void k(global long *s, local long *l) {\n  atom_add(s, 1L);\n  atom_max(l, 2L);\n}\n"
    with_base = Target.preset("CL1.0").apply_overrides("+cl_khr_int64_base_atomics")
    assert [(code, line, msg.split(" needs ")[0]) for code, line, msg in lint(src, with_base)] == [
        ("CL302", 3, "built-in 'atom_max' on 'long'")]


def test_a_guard_silences_the_call_a_pragma_does_not() -> None:
    guarded = (b"kernel void k(local uint *lh) {\n#ifdef cl_khr_local_int32_base_atomics\n"
               b"  atom_inc(lh);\n#endif\n}\n")
    assert lint(guarded, GLOBAL_BASE) == []
    pragma = (b"#pragma OPENCL EXTENSION cl_khr_local_int32_base_atomics : enable\n"
              b"kernel void k(local uint *lh) { atom_inc(lh); }\n")
    assert sorted((code, line) for code, line, _ in lint(pragma, GLOBAL_BASE)) == [("CL302", 2), ("CL307", 1)]
