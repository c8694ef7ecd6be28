"""CL1xx on labelled fixtures (tests/rules/fixtures/address_space/) and unit checks of messages and fixes.

Each fixture starts with `// targets: CL1.2 CL2.0` and `// expect(TARGET): CL1xx line N` lines;
a target with no expect line must give no CL1xx diagnostic.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest

from cllint.analysis.diagnostics import Applicability, Diagnostic
from cllint.analysis.lint import run_rules
from cllint.analysis.registry import all_rules
from cllint.analysis.rules.base import RuleContext
from cllint.analysis.target import Target
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "address_space"
EXPECT = re.compile(r"^// expect\(([\w.-]+)\): (CL\d+) line (\d+)\s*$", re.M)
CASES = sorted(FIXTURES.glob("*.cl"))
CL1 = [r for code, r in all_rules().items() if code.startswith("CL1")]


def lint(source: bytes, target: str = "CL1.2") -> list[Diagnostic]:
    ctx = RuleContext(file="t.cl", source=source, tree=parse(source), target=Target.preset(target))
    return sorted(run_rules(ctx, CL1), key=lambda d: (d.span.start, d.code))


def lint_lines(source: bytes, target: str) -> set[tuple[str, int]]:
    return {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in lint(source, target)}


def _cases() -> list[tuple[Path, str]]:
    out = []
    for p in CASES:
        m = re.search(r"^// targets: (.+)$", p.read_text(), re.M)
        for t in (m.group(1).split() if m else ["CL1.2"]):
            out.append((p, t))
    return out


@pytest.mark.parametrize(("path", "target"), _cases(), ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_fixture(path: Path, target: str) -> None:
    text = path.read_text()
    expected = {(c, int(n)) for t, c, n in EXPECT.findall(text) if t == target}
    source = path.read_bytes()
    got = lint_lines(source, target)
    assert got == expected, sorted(got ^ expected)


def test_every_rule_has_a_fixture() -> None:
    seen = {c for p in CASES for _, c, _ in EXPECT.findall(p.read_text())}
    assert {r.code for r in CL1} <= seen


def test_messages_name_both_sides() -> None:
    src = b"void f(global float *dst);\nkernel void k(local float *l) { f(l); }\n"
    (d,) = lint(src)
    assert d.code == "CL101"
    assert d.message == ("passing '__local float *' to parameter 'dst' of type '__global float *' "
                         "changes address space of pointer")
    assert d.notes and d.notes[0].message == "'dst' declared here"
    assert src[d.span.start:d.span.end] == b"l"


def _apply(src: bytes, d: Diagnostic) -> bytes:
    assert d.fix is not None
    out = src
    for e in sorted(d.fix.edits, key=lambda e: e.span.start, reverse=True):
        out = out[:e.span.start] + e.replacement.encode() + out[e.span.end:]
    return out


def test_helper_parameter_fix_qualifies_the_parameter() -> None:
    src = b"float get(const float *p) { return p[0]; }\nkernel void k(global const float *in, global float *o) " \
          b"{ o[0] = get(in); }\n"
    (d,) = lint(src)
    assert d.code == "CL114" and d.fix is not None and d.fix.applicability is Applicability.SAFE
    fixed = _apply(src, d)
    assert b"float get(const __global float *p)" in fixed
    assert lint(fixed) == []


def test_helper_parameter_fix_needs_one_space() -> None:
    src = b"float get(float *p) { return p[0]; }\nkernel void k(global float *g, local float *l) " \
          b"{ g[0] = get(g) + get(l); }\n"
    diags = lint(src)
    assert [d.code for d in diags] == ["CL114", "CL114"]
    assert all(d.fix is None for d in diags)


def test_kernel_pointer_fix() -> None:
    src = b"kernel void k(float *out) { out[0] = 1.0f; }\n"
    (d,) = lint(src)
    assert d.code == "CL103"
    assert lint(_apply(src, d)) == []


def test_init_fix_adds_the_qualifier() -> None:
    src = b"kernel void k(global float *g) { float *p = g; p[0] = 1; }\n"
    (d,) = lint(src)
    assert d.code == "CL101"
    assert lint(_apply(src, d)) == []


def test_generic_is_version_aware() -> None:
    src = b"kernel void k(global int *g) { int *p = g; p[0] = 1; }\n"
    assert [d.code for d in lint(src, "CL1.2")] == ["CL101"]
    assert lint(src, "CL2.0") == []
    assert lint(src, "CL3.0-all") == []
    assert [d.code for d in lint(src, "CL3.0")] == ["CL101"]


def test_constant_to_generic_is_illegal() -> None:
    src = b"kernel void k(constant int *c) { int *p = c; }\n"
    (d,) = lint(src, "CL2.0")
    assert d.message == ("initializing '__generic int *' with an expression of type '__constant int *' "
                         "changes address space of pointer")


def test_unknown_macros_are_silent() -> None:
    src = b"kernel void k(KMEM float *out, GLOBAL_PTR(float) in) { float *p = out; REAL *q = in; helper(out); }\n"
    assert lint(src) == []


def test_broken_code_never_raises() -> None:
    for src in (b"kernel void k(global int *", b"void f( { int *p = ", b"kernel int",
                b"kernel void k(global int *g) { local int *l = g + ; }", b"((((" * 200):
        lint(src)
        lint(src, "CL2.0")


def test_fast() -> None:
    src = b"".join(p.read_bytes() for p in CASES) * 5
    start = time.perf_counter()
    lint(src)
    assert time.perf_counter() - start < 5
