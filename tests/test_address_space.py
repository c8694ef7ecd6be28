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


def _lint_with_preprocessor(source: bytes, target: str = "CL1.2") -> list[Diagnostic]:
    """Through the real lint path: the preprocessor view knows the `#pragma OPENCL EXTENSION` lines."""
    from cllint.analysis.lint import LintOptions, lint_tree

    opts = LintOptions(target=Target.preset(target), select=("CL1",), mode="target")
    return sorted(lint_tree("t.cl", source, parse(source), opts), key=lambda d: (d.span.start, d.code))


def test_half_by_value_follows_the_pragma() -> None:
    src = (b"half f(half x);\n"
           b"kernel void k(half h) {}\n"
           b"#if 0\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n#endif\n"
           b"half g(half x);\n"
           b"#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n"
           b"half h(half x);\n"
           b"kernel void k(half h) {}\n"  # a second definition: the first is still read
           b"#pragma OPENCL EXTENSION cl_khr_fp16 : disable\n"
           b"float i(half x);\n")
    lines = lambda ds: [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in ds]  # noqa: E731
    want = [("CL118", 1), ("CL118", 1), ("CL104", 2), ("CL118", 6), ("CL118", 6), ("CL118", 11)]
    assert lines(_lint_with_preprocessor(src)) == want
    # Without a preprocessor the pragma lines are read from the text: the one under `#if 0`
    # counts too, which can only make the rule quieter.
    assert lines(lint(src)) == [w for w in want if w[1] != 6]
    assert _lint_with_preprocessor(src, "CL3.0-all") == []  # the target has cl_khr_fp16
    (d, *_) = lint(src)
    assert d.message.startswith("function 'f' cannot return 'half' by value without 'cl_khr_fp16'")


def test_struct_kernel_parameter_names_the_field() -> None:
    src = b"struct In { int x; int *p; };\nstruct Out { struct In in[2]; };\nkernel void k(struct Out o) {}\n"
    (d,) = lint(src, "CL2.0")
    assert d.code == "CL104"
    assert d.message == ("kernel parameter 'o' of type 'struct Out' contains field 'in[].p' of type '__generic int *'; "
                         "pointers in struct kernel parameters must point to '__global', '__constant' or '__local'")
    assert d.notes and d.notes[0].message == "field 'in[].p' declared here"
    assert src[d.notes[0].span.start:d.notes[0].span.end] == b"p"


def test_struct_pointer_hidden_by_a_macro() -> None:
    # The macro may carry `__global`: from OpenCL C 2.0 that pointer may be fine, before it no pointer is.
    src = b"struct S { GMEM int *p; };\nkernel void k(struct S s) {}\n"
    assert lint(src, "CL2.0") == []
    assert [d.code for d in lint(src, "CL1.2")] == ["CL104"]
    assert lint(b"struct S { global int *p; local float *q; };\nkernel void k(struct S s) {}\n", "CL2.0") == []


def test_pipes_only_as_parameters() -> None:
    # The spec forbids pipe fields too (Pipe Functions, Restrictions); clang-19 does not check them.
    src = b"struct S { pipe int p; };\nvoid f(read_only pipe int p) {}\n"
    (d,) = lint(src, "CL2.0")
    assert d.code == "CL116" and d.message == ("field 'p' of type 'pipe int' is not allowed: 'pipe int' cannot be a "
                                               "structure or union member")
    assert lint(src, "CL3.0") == []  # no pipes on this target: CL302 and CL303 say so
    assert [d.code for d in lint(src, "CL3.0-all")] == ["CL116"]


def test_block_typedef_needs_the_block() -> None:
    # Only a typedef read as a block is followed; a macro or another typedef of the name is not.
    src = b"typedef int (^op)(int);\nop *p;\nstruct S { op f; };\n"
    assert [d.code for d in lint(src, "CL2.0")] == ["CL117", "CL117"]
    assert lint(b"typedef int op;\nop *p;\nstruct S { op f; };\n", "CL2.0") == []


def test_multiple_spaces_attribute_fix() -> None:
    src = b"void f(void) { __private __attribute__((opencl_global)) int *p; }\n"
    (d,) = lint(src)
    assert d.code == "CL107" and d.message == ("multiple address spaces specified for type: '__private' and "
                                               "'__global'")
    assert lint(_apply(src, d)) == []


def test_no_variable_from_parser_recovery() -> None:
    # The parser closes the typedef after `unsigned` (a missing `;`) and reads `char uchar4;` as a
    # program-scope variable: that declaration is the parser's, not the file's.
    src = b"typedef VEC_ATTR(4) unsigned char uchar4;\nint after = 1;\n"
    assert [(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint(src)] == [("CL110", 2)]


def test_unsupported_generic_reads_as_private_in_target_mode_only() -> None:
    """clang rejects `generic` on a target without the generic address space and then reads
    the pointer as `__private`: target mode does the same (CL101 beside CL302/CL303);
    portability mode takes a file that writes `generic` at its word."""
    from cllint.analysis.lint import LintOptions, lint_tree

    source = b"kernel void k(local int *l) { generic int *p = l; }\n"
    tree = parse(source)

    def codes(target: str, mode: str) -> list[str]:
        options = LintOptions(target=Target.preset(target), mode=mode)
        return sorted(d.code for d in lint_tree("t.cl", source, tree, options))

    assert codes("CL1.2", "target") == ["CL101", "CL303"]
    assert codes("CL3.0", "target") == ["CL101", "CL302"]
    assert "CL101" not in codes("CL2.0", "target")
    assert codes("CL1.2", "portability") == ["CL301"]


# -- issue 18: built-in arguments, fields, atomics, __constant initializers ---------------------


def test_builtin_argument_names_the_pointer_and_the_spaces_taken() -> None:
    src = b"kernel void k(constant float *c) { vstore4((float4)(0.0f), 0, c); }\n"
    (d,) = lint(src, "CL1.2")
    assert d.code == "CL101"
    assert src[d.span.start:d.span.end] == b"c"
    assert d.message == ("no overload of 'vstore4' takes '__constant float *' as argument 3: it takes pointers "
                         "to '__private', '__global' or '__local'")
    # From OpenCL C 2.0 the unqualified overload takes generic pointers as well.
    (d2,) = lint(src, "CL2.0")
    assert "'__generic'" in d2.message


def test_builtin_argument_private_pointer_to_legacy_atomics() -> None:
    src = b"kernel void k(global int *g) { int x = 0; atomic_add(&x, 1); atomic_add(g, 1); g[1] = x; }\n"
    (d,) = lint(src, "CL2.0")
    assert d.code == "CL101" and src[d.span.start:d.span.end] == b"&x"
    assert "'__private int *'" in d.message and "'__global' or '__local'" in d.message


def test_builtin_without_pointer_parameters_is_silent() -> None:
    src = b"kernel void k(constant float *c, global float *g) { g[0] = fmax(c[0], 1.0f) + vload4(0, c).x; }\n"
    assert lint(src, "CL1.2") == [] and lint(src, "CL2.0") == []


def test_to_space_argument_must_convert_to_generic() -> None:
    src = b"kernel void k(constant int *c, global int *g) {\n  int x = 1;\n" \
          b"  local int *a = to_local(c);\n  private int *b = to_private(x);\n  if (a && b) g[0] = 1;\n}\n"
    got = {(d.code, src[d.span.start:d.span.end], d.message) for d in lint(src, "CL2.0") if d.code == "CL102"}
    assert got == {
        ("CL102", b"c", "'to_local' expects a generic pointer argument, but '__constant int *' points to "
                        "'__constant', which '__generic' does not enclose"),
        ("CL102", b"x", "'to_private' expects a generic pointer argument, not 'int'"),
    }
    assert [d for d in lint(src, "CL1.2") if d.code == "CL102"] == []  # no to_local before 2.0


def test_qualified_field_fix_removes_the_qualifier() -> None:
    src = b"struct S { global int *ok; local float tile[4]; };\n"
    (d,) = lint(src)
    assert d.code == "CL106"
    assert d.message == "field 'tile' of type '__local float [4]' may not be qualified with address space '__local'"
    assert _apply(src, d) == b"struct S { global int *ok; float tile[4]; };\n"


def test_qualified_field_through_typedef_has_no_fix() -> None:
    src = b"typedef local int lint_t;\nstruct S { lint_t n; };\n"
    (d,) = lint(src)
    assert d.code == "CL106" and src[d.span.start:d.span.end] == b"n" and d.fix is None


def test_atomic_initializer_outside_global() -> None:
    src = b"kernel void k(global atomic_int *p) {\n  atomic_int a = 0;\n  atomic_init(p, 1);\n}\n" \
          b"global atomic_int g = ATOMIC_VAR_INIT(0);\n"
    (d,) = lint(src, "CL2.0")
    assert d.code == "CL110" and src[d.span.start:d.span.end] == b"0"
    assert d.message == ("atomic variable 'a' of type 'atomic_int' in '__private' cannot be initialized: only "
                         "'__global' atomics can; call 'atomic_init' instead")
    # Before OpenCL C 2.0 there are no atomic types to speak of (CL303's business); only the
    # program-scope variable outside '__constant' remains.
    assert [x.message.split()[0] for x in lint(src, "CL1.2")] == ["program"]


def test_constant_initializer_address_of_automatic_variable() -> None:
    src = b"kernel void k(int x, global int *o) {\n  private int *constant p = &x;\n  o[0] = *p;\n}\n"
    (d,) = lint(src, "CL2.0")
    assert d.code == "CL109" and src[d.span.start:d.span.end] == b"&x"
    assert d.message == ("initializer of '__constant' variable 'p' is not a compile-time constant: it takes the "
                         "address of 'x', a variable in '__private'")
    assert d.notes and d.notes[0].message == "'x' declared here"
