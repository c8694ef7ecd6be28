"""The semantic family stays quiet where something other than the file's own declarations may
give a name its meaning, and CL012 reports host-defined macros once per name and function."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.rules.semantic import RULES
from cllint.grammar import parse

CODES = tuple(r.code for r in RULES)


def codes(source: str, defines: tuple[tuple[str, str], ...] = (), resolver=None) -> list[tuple[int, str]]:  # noqa: ANN001
    data = source.encode()
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES, defines=defines),
                      include_resolver=resolver)
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code) for d in diags]


QUIET = {
    "type-expression-ambiguity": "kernel void k(global int *o, int a, int b) { a*b; o[0] = a; }",
    "host-type-used-throughout": "typedef float2 realC;\nreal twice(real x) { return x + x; }\n"
                                 "kernel void k(global real *o) { real v = o[0]; o[0] = twice(v); }",
    "host-type-all-capitals": "kernel void k(global float *o) { REALT v = o[0]; o[0] = (REALT)v; }",
    "incomplete-struct-tag": "struct opaque;\nvoid f(struct opaque *p) { }\nkernel void k() { f(0); }",
    "unknown-type-far-from-any": "kernel void k(global float *o) { Accumulator a = o[0]; o[0] = a; }",
    "macro-empty-argument": "#define ID(x) x\nkernel void k(global int *a) { a[0] = 1 ID(); }",
    "macro-variadic": "#define LOG(fmt, ...) printf(fmt, __VA_ARGS__)\n"
                      "kernel void k(global int *a) { LOG(\"%d %d\\n\", a[0], a[1]); }",
    "macro-arity-in-arms": "#ifdef WIDE\n#define AT(p, i, w) p[(i) * (w)]\n#else\n#define AT(p, i) p[i]\n#endif\n"
                           "kernel void k(global int *a) { AT(a, 0) = 1; }",
    "macro-argument-commas-grouped": "#define ONE(v) (v)\n#define PAIR(a, b) ((a) + (b))\n"
                                     "kernel void k(global float4 *o) { o[0] = ONE((float4)(1, 2, 3, 4)) + "
                                     "PAIR(\",\"[0], ',');\n}",
    "object-macro-called": "#define F f_impl\nfloat f_impl(float x, float y) { return x + y; }\n"
                           "kernel void k(global float *a) { a[0] = F(a[1], a[2]); }",
    "object-macro": "#define N 16\nkernel void k(global int *a) { a[0] = N; }",
    "macro-declares-name": "#define GID int gid = get_global_id(0)\nkernel void k(global int *a) { GID; a[gid] = 1; }",
    "macro-argument-declares-name": "#define FOR(i, n) for (int i = 0; i < n; i++)\n"
                                     "kernel void k(global int *a) { FOR(j, 4) { a[j] = j; } }",
    "dead-branch": "kernel void k(global int *a) {\n#if 0\n  a[0] = missing;\n#endif\n  a[1] = 1;\n}",
    "enum-constant": "enum mode { FAST, SLOW };\nkernel void k(global int *a) { a[0] = FAST + SLOW; }",
    "local-enum": "kernel void k(global int *a) { enum { A = 1, B }; a[0] = A + B; }",
    "typedef-in-sizeof": "typedef float4 vec;\nkernel void k(global int *a) { a[0] = sizeof(vec); }",
    "label": "kernel void k(global int *a) { if (a[0]) goto done; a[0] = 1; done: a[1] = 2; }",
    "builtin-constant": "kernel void k(global float *a) { a[0] = M_PI_F + FLT_MAX; barrier(CLK_LOCAL_MEM_FENCE); }",
    "header-macros": "kernel void k(global int *a) { a[0] = FP_ILOGB0 + MAX_WORK_DIM + CLK_sRGBA; }",
    "conversion-builtins": "kernel void k(global int4 *a, global float4 *b) { b[0] = convert_float4(a[0]) + "
                           "as_float4(a[1]); }",
    "vendor-builtin": "kernel void k(global float *a) { a[0] = amd_bitalign(1u, 2u, 3u); }",
    "missing-include": '#include "helpers.h"\nkernel void k(global float *a) { a[0] = helper(a[1]) + SCALE; }',
    "computed-include-in-dead-arm": "#ifdef KERNEL_STATIC\n#include M2S(INCLUDE_PATH/inc_common.cl)\n#endif\n"
                                    "kernel void k(global uint *a) { a[0] = hc_rotl32(a[1], 3); }",
    "redefinition-in-arms": "kernel void k(global float *a) {\n#ifdef WIDE\n  double v = a[0];\n#else\n"
                            "  float v = a[0];\n#endif\n  a[1] = v;\n}",
    "function-in-arms": "#ifdef TWO\nfloat f(float a, float b) { return a + b; }\n#else\n"
                        "float f(float a) { return a; }\n#endif\nkernel void k(global float *a) { a[0] = f(a[1]); }",
    "infinite-loop": "int spin(global int *a) { while (1) { if (a[0]) return a[1]; } }",
    "switch-returns": "int pick(int x) { switch (x) { case 0: return 1; default: return 2; } }",
    "if-else-returns": "int sign(int x) { if (x < 0) return -1; else return 1; }",
    "macro-call-in-non-void": "#define FAIL() return 0\nint f(int x) { if (x) return 1; FAIL(); }",
    "scalar-splat": "kernel void k(global float4 *a) { a[0] = (float4)(1.0f); a[1] = 2.0f; }",
    "vector-halves": "kernel void k(global float4 *a, global float2 *b) { b[0] = a[0].lo + a[0].odd + a[0].s01; }",
    "anonymous-union-member": "typedef struct { union { int i; float f; }; } U;\n"
                              "kernel void k(global U *u) { u->f = 1.0f; }",
    "null-pointer-constant": "void f(global int *p) { }\nkernel void k() { global int *p = 0; f(0); }",
    "const-pointee-pointer-moves": "kernel void k(global const float *a) { const global float *p = a; p++; }",
    "void-return-of-void-call": "void g(global int *a) { a[0] = 1; }\nvoid f(global int *a) { return g(a); }",
    "macro-packs": "float shade(float albedo, float3 n KERNEL_PARAMS) { return albedo * n.x; }\n"
                   "float two(float a, float b) { return a + b; }\n"
                   "kernel void k(global float *o, global float3 *nn, long N, global float *C) {\n"
                   "  o[0] = shade(0.5f, nn[0] KERNEL_ARGS); o[1] = two(1.0f EXTRA_ARGS); C[0] = N;\n}",
    "attribute-arguments": "kernel void k(global float4 *a) {\n"
                           "  local float t[4] __attribute__((aligned(16)));\n"
                           "  global float4 *__attribute__((aligned(16))) p = a;\n  p[0].x = t[0];\n}",
    # A type the file never declares (a vendor extension's `float32`, a header's) written as a
    # type in the body: the same name in parentheses before a value is a cast, not a variable.
    "unknown-type-cast-call-shape": "kernel void k(global float *o) {\n  __private float32 acc = (float32)(0);\n"
                                    "  o[0] = acc.s0;\n}",
    "unknown-type-cast-in-helper": "half16 widen(half8 a);\nkernel void k(global float *o) {\n  bigvec v;\n"
                                   "  v = (bigvec)(o[0]);\n  o[1] = v.x;\n}",
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_quiet(name: str) -> None:
    assert codes(QUIET[name]) == []


def test_a_parenthesised_name_no_declaration_writes_as_a_type_is_still_undeclared() -> None:
    src = "kernel void k(global float *o) {\n  float32 unused;\n  o[0] = (scale)(2.0f);\n}\n"
    assert codes(src) == [(3, "CL010")]


def test_host_macro_once_per_file() -> None:
    # once per name in the file (issue 29, item 6): the other function's use is a note
    src = ("kernel void k(global float *a) {\n  local float t[TILE];\n  a[0] = TILE + TILE;\n}\n"
           "kernel void j(global float *a) {\n  a[0] = TILE;\n}\n")
    assert codes(src) == [(3, "CL012")]


def test_host_macro_quiet_once_defined() -> None:
    src = "kernel void k(global float *a) {\n  a[0] = BLOCK_SIZE * 2;\n}\n"
    assert codes(src) == [(2, "CL012")]
    assert codes(src, defines=(("BLOCK_SIZE", "16"),)) == []


def test_near_miss_of_a_macro_spelling_stays_an_error() -> None:
    src = "kernel void k(global float *a) {\n  int BLOCK_SIZE = 4;\n  a[0] = BLOCK_SIZ;\n}\n"
    assert codes(src) == [(3, "CL010")]


def test_found_header_macros_count() -> None:
    def resolver(path: str, angled: bool, including: str):  # noqa: ANN202
        return ("/h/defs.h", b"#define WIDTH 8\n") if path == "defs.h" else None

    src = '#include "defs.h"\nkernel void k(global float *a) {\n  a[0] = WIDTH;\n}\n'
    assert codes(src, resolver=resolver) == []


def test_did_you_mean_notes_the_declaration() -> None:
    data = b"kernel void k(global float *a) {\n  float total = 0.0f;\n  a[0] = totl;\n}\n"
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES))
    assert [d.message for d in diags] == ["use of undeclared identifier 'totl'; did you mean 'total'?"]
    assert [n.message for n in diags[0].notes] == ["'total' declared here"]
    assert data[diags[0].span.start:diags[0].span.end] == b"totl"


def test_builtin_candidates_are_notes() -> None:
    data = b"kernel void k(global float *a) { a[0] = fmax(a[1]); }"
    (d,) = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES))
    assert d.code == "CL014" and data[d.span.start:d.span.end] == b"fmax(a[1])"
    assert d.notes and all(n.message.startswith(("candidate function: '", "and ")) for n in d.notes)


def test_operand_typed_by_another_arm_is_not_judged() -> None:
    # the parameter is an image in one arm and a pointer in the other; the code under the
    # other arm does arithmetic on the pointer (ggml's SRC0Q_IMG kernels)
    src = ("kernel void k(\n#ifdef Q_IMG\n  read_only image1d_buffer_t q,\n#else\n  global uchar *q,\n#endif\n"
           "  global int *o) {\n#ifdef Q_IMG\n  o[0] = 1;\n#else\n  q = q + 16;\n  o[0] = q[0];\n#endif\n}")
    assert [c for _, c in codes(src) if c == "CL023"] == []
