"""Labelled one-mistake kernels that clang-19 rejects and no native rule checks: the
clang layer (CL099) must report each once, on the line marked `// clang`, and stay
silent on the corrected kernel. HELDOUT was written with TUNE and not looked at while
the code was built; it is reported separately (tests/compiler/test_compiler_heldout.py)."""

from __future__ import annotations

# name -> (kernel with the mistake, the same kernel corrected)
TUNE: dict[str, tuple[str, str]] = {
    "float-modulo": (
        "kernel void k(global float *a) {\n    a[0] = a[1] % 2.0f;  // clang\n}\n",
        "kernel void k(global float *a) {\n    a[0] = fmod(a[1], 2.0f);\n}\n"),
    "break-outside-loop": (
        "kernel void k(global int *a) {\n    a[0] = 1;\n    break;  // clang\n}\n",
        "kernel void k(global int *a) {\n    for (int i = 0; i < 2; i++) { a[i] = 1; break; }\n}\n"),
    "call-non-function": (
        "kernel void k(global int *a) {\n    int f = 2;\n    a[0] = f(1);  // clang\n}\n",
        "int f(int x) { return x; }\nkernel void k(global int *a) {\n    a[0] = f(1);\n}\n"),
    "bitwise-not-float": (
        "kernel void k(global float *a) {\n    a[0] = ~a[1];  // clang\n}\n",
        "kernel void k(global float *a) {\n    a[0] = -a[1];\n}\n"),
    "deref-int": (
        "kernel void k(global int *a) {\n    int v = a[0];\n    a[1] = *v;  // clang\n}\n",
        "kernel void k(global int *a) {\n    global int *v = a;\n    a[1] = *v;\n}\n"),
    "case-outside-switch": (
        "kernel void k(global int *a) {\n    case 1: a[0] = 2;  // clang\n}\n",
        "kernel void k(global int *a) {\n    switch (a[1]) { case 1: a[0] = 2; }\n}\n"),
}

HELDOUT: dict[str, tuple[str, str]] = {
    "continue-outside-loop": (
        "void f(global int *a) {\n    continue;  // clang\n}\nkernel void k(global int *a) { f(a); }\n",
        # (each work-item its own element: every work-item decrementing a[0] is a race, CL211)
        "void f(global int *a) {\n    while (a[0]) { a[0]--; continue; }\n}\n"
        "kernel void k(global int *a) { f(a + get_global_id(0)); }\n"),
    "subscript-int": (
        "kernel void k(global int *a) {\n    int v = a[0];\n    a[1] = v[2];  // clang\n}\n",
        "kernel void k(global int *a) {\n    int v = a[0];\n    a[1] = a[v];\n}\n"),
    "struct-plus-int": (
        "struct S { int x; };\nkernel void k(global int *a) {\n    struct S s = {1};\n    a[0] = s + 1;  // clang\n}\n",
        "struct S { int x; };\nkernel void k(global int *a) {\n    struct S s = {1};\n    a[0] = s.x + 1;\n}\n"),
}


def marked_line(text: str) -> int:
    """The 1-based line carrying the `// clang` marker."""
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.endswith("// clang"))
