"""hover_at: expression types with address spaces, declarations, macros, built-ins."""

import pytest

from cllint.analysis.ide.hover import hover_at
from ide_fixtures import FILE, snapshot


def check(src: str, std: str = "CL1.2") -> str:
    snap, cursor = snapshot(src, std)
    h = hover_at(snap, FILE, cursor)
    assert h is not None
    return h.markdown


@pytest.mark.parametrize("std, where", [("CL1.2", "__private` (inferred: OpenCL C 1.2)"),
                                        ("CL2.0", "__generic` (inferred: OpenCL C 2.0)"),
                                        ("CL3.0", "__private` (inferred: OpenCL C 3.0 without")])
def test_unqualified_pointer_shows_inferred_space(std, where):
    md = check("void f(float *x) { float y = x$0[0]; }", std)
    assert "float *x" in md and "**Type:** `float *` — points to `" + where in md


def test_explicit_space_is_not_marked_inferred():
    md = check("kernel void k(global float *out) { out$0[0] = 1.0f; }")
    assert "`__global float *` — points to `__global`" in md and "inferred: OpenCL" not in md


def test_field_subscript_and_local_array():
    assert "`__global float *` — points to `__global`" in check(
        "struct S { global float *p; };\nvoid f(struct S s) { s.p$0[0] = 1; }")
    assert "**Type:** `float`" in check("void f(global float *x) { float y = x[0$0]; }")
    md = check("kernel void k() { local float t[4]; t$0[0] = 1; }")
    assert "`__local float [4]`" in md and "**Lives in:** `__local`" in md


def test_macro_definition_and_expansion():
    md = check("#define A B + 1\n#define B 2\nint f() { return A$0; }")
    assert "#define A B + 1" in md and "Expands to: `2 + 1`" in md
    assert "#define TILE 16" in check("#define TILE 16\nint f() { return TI$0LE; }")
    assert "#define __OPENCL_VERSION__ 120" in check("int f() { return __OPENCL_VERSION$0__; }")


def test_builtin_keeps_catalogue_hover():
    md = check("kernel void k() { size_t i = get_glo$0bal_id(0); }")
    assert "size_t get_global_id(uint dimindx)" in md and "**Requires:**" in md and "](http" in md


def test_function_shows_its_head():
    md = check("float g(float a) { return a; }\nvoid k() { g$0(1.0f); }")
    assert "float g(float a)" in md and "*function*" in md


def test_nothing_on_whitespace():
    snap, cursor = snapshot("void f() {$0 }\n")
    assert hover_at(snap, FILE, cursor) is None
