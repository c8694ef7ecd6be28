"""CL001 on definitions whose name a function-like macro makes from arguments that are no
parameter declarations (`kernel void MM_KERNEL_NAME(dpas, 8, 16, MM, NN)(global float *C)`,
issue 29): clang-19 expands the macro and accepts the head; cllint read the call as a
parameter list and reported "unexpected ','". A head that starts with declaration specifiers
before the call is read expanded as a line that starts with the call already is; the body stays
as written, so its own errors are still reported.

Cases written before the change; `HELDOUT` was scored only once the code was done. Each valid
case is clang-19 clean (`clang-19 -x cl -cl-std=CL3.0 -fsyntax-only`)."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

NAMES = (b"#define NAMEX(P, tM, tN, MM, NN) P ## _m ## tM ## _n ## tN ## _ ## MM ## x ## NN\n"
         b"#define NAME(P, tM, tN, MM, NN) NAMEX(P, tM, tN, MM, NN)\n"
         b"#define MM 2\n#define NN 4\n")

# (source, lines where CL001 must be reported)
TUNE = {
    "kernel_two_heads": (NAMES + b"""__attribute__((reqd_work_group_size(8, 1, 1)))
kernel void NAME(dpas_rowmajor, 8, 8, MM, NN)(global float* C, int K)
{
    C[0] = K;
}

kernel void NAME(dpas_rowmajor, 8, 16, MM, NN)(global float* C, int K)
{
    C[get_global_id(0)] = K;
}
""", set()),
    "static_inline_helper": (b"#define MAKE(f, n) f ## _x ## n\n"
                             b"static inline float MAKE(scale, 2)(float x) { return x * 2; }\n"
                             b"kernel void k(global float *a) { a[0] = scale_x2(a[0]); }\n", set()),
    "error_in_body_stays": (NAMES + b"kernel void NAME(k, 1, 2, MM, NN)(global int *a) {\n"
                                    b"    a[0] = 1\n}\n", {6}),
    "expansion_not_a_name_stays": (b"#define BAD(a, n) a +\n"
                                   b"kernel void BAD(x, 1)(global int *a) { a[0] = 1; }\n", {2}),
}

HELDOUT = {
    "three_args_with_a_type": (b"#define KNAME(op, wg, T) op ## _ ## T ## _ ## wg\n"
                               b"__kernel void KNAME(reduce, 256, float)(__global const float *in,\n"
                               b"                                        __global float *out, int n)\n"
                               b"{\n    out[0] = in[n - 1];\n}\n", set()),
    "void_helper_then_call": (b"#define HNAME(f, w) f ## w\n"
                              b"void HNAME(load, 4)(global float *p, int i) { p[i] = 0.0f; }\n"
                              b"kernel void go(global float *p) { load4(p, 0); }\n", set()),
    "body_error_after_macro_head": (b"#define NAME2(a, n) a ## n\n"
                                    b"kernel void NAME2(a, 8)(global int *x) {\n"
                                    b"    x[0] = 1 +;\n}\n", {3}),
}


def _cl001_lines(src: bytes) -> set[int]:
    diags = lint_tree("t.cl", src, parse(src), LintOptions(select=("CL001",)))
    return {src.count(b"\n", 0, d.span.start) + 1 for d in diags if d.code == "CL001"}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, lines = TUNE[name]
    assert _cl001_lines(src) == lines


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, lines = HELDOUT[name]
    assert _cl001_lines(src) == lines
