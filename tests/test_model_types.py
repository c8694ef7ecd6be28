"""Types in the semantic model: spec 6.3 (vectors, swizzles), 6.4 (conversions), 6.7 (address spaces)."""

from __future__ import annotations

import pytest

from cllint.analysis.model import AddressSpace, Pointer, Scalar, SemanticModel, Vector
from cllint.analysis.model.exprs import literal_type
from cllint.analysis.model.overloads import parse_catalogue_type, resolve_builtin
from cllint.analysis.model.types import (
    Array,
    common_address_space,
    default_pointee_space,
    is_enclosed,
    swizzle_type,
    vector,
)
from cllint.analysis.syntax import parse, walk
from cllint.analysis.target import Target

CL12, CL20, CL30, CL30ALL = (Target.preset(n) for n in ("CL1.2", "CL2.0", "CL3.0", "CL3.0-all"))
G, L, C, P, GEN = (AddressSpace.GLOBAL, AddressSpace.LOCAL, AddressSpace.CONSTANT, AddressSpace.PRIVATE,
                   AddressSpace.GENERIC)


def model(src: str, target: Target = CL20, expander=None) -> SemanticModel:
    data = src.encode()
    return SemanticModel(parse(data), data, target, expander)


def expr_type(src: str, expr: str, target: Target = CL20) -> str:
    """Type of the first expression statement or initialiser whose text is `expr`."""
    m = model(src, target)
    for node in walk(m.tree.root_node):
        if node.is_named and m.source[node.start_byte:node.end_byte].decode() == expr and \
                node.type not in ("expression_statement",):
            return m.type_of(node).render()
    raise AssertionError(f"no expression {expr!r}")


# -- 6.7 inference ---------------------------------------------------------------------------


@pytest.mark.parametrize("target, space", [(CL12, P), (CL20, GEN), (CL30, P), (CL30ALL, GEN)])
def test_unqualified_pointer_points_to_generic_only_with_the_feature(target, space):
    assert default_pointee_space(target) is space
    m = model("void func(int param) { int *ptr; }", target)
    ptr = m.function("func").locals[0]
    assert ptr.type == Pointer(Scalar("int"), space, False)
    assert ptr.space is P  # the pointer itself is a private variable


def test_spec_inference_examples_program_scope():
    src = """
    int foo;
    static int bar;
    int *ptr;
    int *global gptr;
    constant int *cptr = "Hello";
    global int *global both;
    """
    m = model(src, CL20)
    g = m.globals
    assert g["foo"].space is G and not g["foo"].space_explicit
    assert g["bar"].space is G and "static" in g["bar"].storage
    assert g["ptr"].space is G and g["ptr"].type.render() == "__generic int *"
    assert g["gptr"].space is G and g["gptr"].space_explicit and g["gptr"].type.space is GEN
    assert g["cptr"].type.render() == "__constant int *"
    assert g["both"].type == Pointer(Scalar("int"), G, True)
    # before 2.0 program-scope variables must be constant
    m12 = model(src, CL12)
    assert m12.globals["foo"].space is C
    assert m12.globals["ptr"].type.render() == "__private int *"


def test_function_scope_inference():
    src = """
    void func(int param) {
        int foo;
        static int sfoo;
        local float *lp;
    }
    kernel void k(global int *g, local int *l) { local float tile[16]; private int i; constant int c = 1; }
    """
    m = model(src, CL20)
    func = m.function("func")
    assert func.params[0].space is P
    spaces = {s.name: s.space for s in func.locals}
    assert spaces == {"foo": P, "sfoo": G, "lp": P}
    k = m.function("k")
    assert [p.type.render() for p in k.params] == ["__global int *", "__local int *"]
    tile, i, c = k.locals
    assert tile.type == Array(Scalar("float"), 16, L) and tile.space is L and tile.in_kernel_scope
    assert i.space is P and i.space_explicit
    assert c.space is C


def test_pointer_to_pointer_renders_each_level():
    m = model("void f() { local int **pp; global int *local *q; }", CL20)
    pp, q = m.function("f").locals
    assert pp.type.render() == "__local int **"
    assert pp.type.render(full=True) == "__local int *__generic *"
    assert q.type.render() == "__global int *__local *"
    assert q.type.pointee == Pointer(Scalar("int"), G, True)


def test_string_literal_is_constant_char_array():
    assert expr_type('void f() { "hi"; }', '"hi"') == "__constant char [3]"
    assert expr_type('void f() { &"hi"[0]; }', '&"hi"[0]') == "__constant char *"


def test_enclosure_and_common_space():
    assert is_enclosed(P, GEN) and is_enclosed(L, GEN) and is_enclosed(G, GEN)
    assert not is_enclosed(C, GEN) and not is_enclosed(GEN, G) and is_enclosed(C, C)
    assert common_address_space(L, P) is GEN
    assert common_address_space(G, G) is G
    assert common_address_space(C, G) is None


def test_spec_generic_example_ternary_of_private_and_local():
    src = "kernel void foo(int a) { private int b; local int c; int *p = a ? &b : &c; }"
    assert expr_type(src, "&b") == "__private int *"
    assert expr_type(src, "&c") == "__local int *"
    assert expr_type(src, "a ? &b : &c") == "__generic int *"


def test_typedef_of_pointer_keeps_address_space():
    src = "typedef __global float *gptr; kernel void k(gptr p) { p[0]; *p; p + 1; }"
    m = model(src)
    assert m.typedefs["gptr"].type == Pointer(Scalar("float"), G, True)
    assert m.functions["k"].params[0].type.render() == "__global float *"
    assert expr_type(src, "p + 1") == "__global float *"
    assert expr_type(src, "*p") == "float"


def test_macro_expanded_qualifiers():
    macros = {"GLOBAL_AS": "__global", "DECLSPEC": "static inline", "KERNEL": "__kernel",
              "REAL": "double"}
    src = "KERNEL void k(GLOBAL_AS REAL *x) { GLOBAL_AS float *g; }\nDECLSPEC int h(void) { return 0; }"
    m = model(src, CL20, lambda name, offset: macros.get(name))
    assert m.functions["k"].is_kernel
    assert m.functions["k"].params[0].type.render() == "__global double *"
    assert m.function("k").locals[0].type.render() == "__global float *"
    assert "static" in m.functions["h"].symbol.storage
    # without an expander the macros are unknown but the rest of the model stands
    m2 = model(src, CL20)
    assert m2.functions["k"].params[0].type.render() == "__generic REAL *"


def test_expander_failure_is_contained():
    def boom(name, offset):
        raise RuntimeError("broken preprocessor")

    m = model("GLOBAL_AS float *g; void f() {}", CL20, boom)
    assert m.globals["g"].type.render() == "__generic float *"


# -- vectors ---------------------------------------------------------------------------------


@pytest.mark.parametrize("vec, sel, result", [
    ("float4", "xy", "float2"), ("float4", "s0", "float"), ("float8", "lo", "float4"),
    ("float4", "wzyx", "float4"), ("float4", "xxyy", "float4"), ("float8", "odd", "float4"),
    ("float3", "hi", "float2"), ("float16", "sF", "float"), ("float16", "s0123", "float4"),
    ("uchar2", "x", "uchar"), ("float4", "rgb", "float3"),
])
def test_swizzle_result_types(vec, sel, result):
    elem, n = vec.rstrip("0123456789"), int(vec[len(vec.rstrip("0123456789")):])
    assert swizzle_type(vector(elem, n), sel).render() == result


def test_swizzles_in_expressions_spec_examples():
    src = """
    void transpose(float4 m[4]) {
        float16 x = (float16)(m[0], m[1], m[2], m[3]);
        x.lo.lo;
        float8 vf;
        vf.even.hi;
        vf.s07;
        float2 c; c.z;
    }
    """
    assert expr_type(src, "x.lo.lo") == "float4"
    assert expr_type(src, "vf.even.hi") == "float2"
    assert expr_type(src, "vf.s07") == "float2"
    assert expr_type(src, "m[0]") == "float4"
    assert expr_type(src, "c.z").startswith("float2.z")  # out of range: unknown, named


def test_vector_comparison_gives_signed_integer_vector():
    src = "void f(float4 a, double2 d) { a < a; d == d; a * 2.0f; }"
    assert expr_type(src, "a < a") == "int4"
    assert expr_type(src, "d == d") == "long2"
    assert expr_type(src, "a * 2.0f") == "float4"


# -- literals and arithmetic -------------------------------------------------------------------


@pytest.mark.parametrize("lit, t", [("1.0", "double"), ("1.0f", "float"), ("1.0h", "half"), ("1", "int"),
                                    ("1u", "uint"), ("1ul", "ulong"), ("0x10", "int"), ("1e3", "double"),
                                    ("2.5e-3F", "float"), ("4294967296", "long"), ("'a'", "int")])
def test_literal_types(lit, t):
    if lit.startswith("'"):
        assert expr_type(f"void f() {{ {lit}; }}", lit) == t
    else:
        assert literal_type(lit).render() == t


def test_pointer_arithmetic_and_difference():
    src = "kernel void k(global float *a, global float *b, local int *l) { a + 1; 2 + a; a - b; l[3]; &l[3]; }"
    assert expr_type(src, "a + 1") == "__global float *"
    assert expr_type(src, "2 + a") == "__global float *"
    assert expr_type(src, "a - b") == "ptrdiff_t"
    assert expr_type(src, "l[3]") == "int"
    assert expr_type(src, "&l[3]") == "__local int *"


def test_casts_including_address_space_casts():
    src = "kernel void k(global float *a) { (int)a[0]; (__global int *)a; (uchar4)(1); to_private((int *)0); }"
    assert expr_type(src, "(int)a[0]") == "int"
    assert expr_type(src, "(__global int *)a") == "__global int *"
    assert expr_type(src, "(uchar4)(1)") == "uchar4"


def test_usual_arithmetic_conversions():
    src = "void f(int i, uint u, float x, char c, size_t s) { i + u; i + x; c + c; (s * i); i << c; }"
    assert expr_type(src, "i + u") == "uint"
    assert expr_type(src, "i + x") == "float"
    assert expr_type(src, "c + c") == "int"
    assert expr_type(src, "s * i") == "size_t"
    assert expr_type(src, "i << c") == "int"


# -- built-ins -----------------------------------------------------------------------------------


def test_builtin_return_types_and_overloads():
    src = """
    kernel void k(global float4 *a, local float *l, global int *gi, read_only image2d_t img, sampler_t s) {
        get_global_id(0);
        dot(a[0], a[0]);
        max(a[0], 1.0f);
        fract(l[0], l);
        vload4(0, l);
        read_imagef(img, s, (int2)(0, 0));
        atomic_add(gi, 1);
        convert_int4_sat_rte(a[0]);
        as_uint(l[0]);
        sin(1.0);
        mad(l[0], 2.0f, 1.0f);
    }
    """
    assert expr_type(src, "get_global_id(0)") == "size_t"
    assert expr_type(src, "dot(a[0], a[0])") == "float"
    assert expr_type(src, "max(a[0], 1.0f)") == "float4"
    assert expr_type(src, "fract(l[0], l)") == "float"
    assert expr_type(src, "vload4(0, l)") == "float4"
    assert expr_type(src, "read_imagef(img, s, (int2)(0, 0))") == "float4"
    assert expr_type(src, "atomic_add(gi, 1)") == "int"
    assert expr_type(src, "convert_int4_sat_rte(a[0])") == "int4"
    assert expr_type(src, "as_uint(l[0])") == "uint"
    assert expr_type(src, "sin(1.0)") == "double"
    assert expr_type(src, "mad(l[0], 2.0f, 1.0f)") == "float"


def test_overload_picks_matching_pointer_address_space():
    lf = Pointer(Scalar("float"), L, True)
    res = resolve_builtin("fract", [Scalar("float"), lf], CL20)
    assert res is not None and res.overload is not None
    assert res.overload.params[1].type == "__local float *"
    res12 = resolve_builtin("fract", [Scalar("float"), Pointer(Scalar("float"), P, True)], CL12)
    assert res12.overload.params[1].type == "__private float *"
    gen = resolve_builtin("fract", [vector("float", 4), Pointer(vector("float", 4), GEN, False)], CL20)
    assert gen.overload.params[1].type == "float4 *" and gen.returns == vector("float", 4)


def test_gentype_return_bound_from_argument():
    res = resolve_builtin("to_global", [Pointer(Scalar("int"), GEN, False)], CL20)
    assert res.returns == Pointer(Scalar("int"), G, True)
    assert expr_type("void f(int *p) { to_local(p); }", "to_local(p)") == "__local int *"


def test_catalogue_type_strings():
    assert parse_catalogue_type("volatile __global atomic_int *").render() == "volatile __global atomic_int *"
    assert parse_catalogue_type("const __constant char *").render() == "const __constant char *"
    assert parse_catalogue_type("float *") == Pointer(Scalar("float"), GEN, False)
    assert parse_catalogue_type("read_only image2d_t").render() == "read_only image2d_t"
    assert parse_catalogue_type("float4") == Vector(Scalar("float"), 4)
