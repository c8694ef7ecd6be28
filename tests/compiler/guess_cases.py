"""Labelled kernels for the clang layer's agreement check: clang-19 builds the file alone, so
a name the program provides (a type the host defines with `-D`, a sibling fragment's helper)
is undeclared to it, and its other errors follow from that. Where clang calls a name missing
that the native rules did not, its build is a guess and CL099 says nothing; where clang and the
native rules agree on every missing name, clang's other errors are its own and stay.
HELDOUT was written with TUNE and not looked at while the code was built."""

from __future__ import annotations

# name -> kernel; CL099 is expected on the lines marked `// clang` and nowhere else
TUNE: dict[str, str] = {
    # a helper's type the host or a sibling provides: clang's later error is about `v`
    "host-type-cascade": (
        "kernel void k(global float4 *a) {\n    vec_t v = load_vec(a);\n    a[0] = v.xyzw;\n}\n"),
    # a scalar type the host passes with -D (`-Dreal_t=float`): clang calls both lines wrong
    "host-scalar-type": (
        "kernel void k(global int *a) {\n    real_t x = a[0];\n    a[1] = x % 2;\n}\n"),
    # both agree that `sqr` is missing; the stray `break` is clang's own finding
    "agreed-name-own-error": (
        "kernel void k(global float *a) {\n    a[0] = sqr(a[0]);\n    a[1] = 2.0f;\n"
        "    break;  // clang\n}\n"),
    # session 17: a list of calls of macros nothing the file reads defines (a host joins the
    # headers that do): a fragment, which no compiler builds alone
    "macro-list-fragment": (
        "GEN_KERNEL( CAT(add_, Real), Real, Real2)\nGEN_KERNEL( CAT(mul_, Real), Real, Real2)\n"),
    # the same list with its macro defined in the file: clang's own error stays
    "macro-list-defined-here": (
        "#define GEN_KERNEL(NAME, T) kernel void NAME(global T *p) { p[0] = (T)1; }\n"
        "GEN_KERNEL(add_f, float)\nkernel void k(global int *a) {\n    break;  // clang\n}\n"),
}

HELDOUT: dict[str, str] = {
    # session 17, scored once after the code
    "x-macro-list-with-comment": (
        "/* one kernel per precision, expanded by the host's headers */\n"
        "MAKE_SCAN( M_CAT(scan_, Real), Real)\nMAKE_SCAN( M_CAT(scan2_, Real), Real)\n"),
    "host-accumulator-type": (
        "kernel void k(global float *a) {\n    accum_t acc = 0;\n    for (int i = 0; i < 4; i++)\n"
        "        acc += a[i];\n    a[0] = acc;\n}\n"),
    "agreed-typo-own-error": (
        "kernel void k(global int *a) {\n    a[get_global_ix(0)] = 1;\n    a[1] = 2;\n"
        "    case 1: a[2] = 3;  // clang\n}\n"),
}
