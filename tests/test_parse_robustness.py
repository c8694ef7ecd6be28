"""Hostile input never crashes the grammar: a tree always comes back (timing is not asserted)."""

from __future__ import annotations

import random

import pytest

from cllint import grammar

KERNEL = b"""\
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define TILE 16

typedef struct { float4 pos; uint flags; } particle_t;

inline float sq(float x) { return x * x; }

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1)))
void step(__global particle_t *restrict p, __constant float *w, __local float *tile, const uint n)
{
    const size_t gid = get_global_id(0);
    const uint lid = get_local_id(0);
    tile[lid] = gid < n ? p[gid].pos.x : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float4 acc = (float4)(0.0f);
    for (uint i = 0; i < TILE; ++i) {
        acc.xyz += (float3)(tile[i], sq(w[i]), 1.0f);
    }
    if (gid < n) p[gid].pos = acc * (float4)(0.5f, 0.5f, 0.5f, 1.0f);
}
"""


def _check(data: bytes) -> None:
    tree = grammar.parse(data)
    root = tree.root_node
    assert root is not None
    assert root.end_byte <= len(data)
    # touching the whole tree must not crash either (iteratively: deep trees overflow recursion)
    assert root.descendant_count >= 1
    cursor = root.walk()
    visited = 0
    while True:
        visited += 1
        if cursor.goto_first_child() or cursor.goto_next_sibling():
            continue
        while cursor.goto_parent():
            if cursor.goto_next_sibling():
                break
        else:
            break
    assert visited >= 1


def test_realistic_kernel_parses() -> None:
    tree = grammar.parse(KERNEL)
    assert tree.root_node.type == "translation_unit"


def test_empty() -> None:
    tree = grammar.parse(b"")
    assert tree.root_node.type == "translation_unit"
    assert tree.root_node.child_count == 0
    _check(b"")


@pytest.mark.parametrize("seed", range(8))
def test_random_bytes(seed: int) -> None:
    rng = random.Random(seed)
    _check(bytes(rng.getrandbits(8) for _ in range(rng.randint(1, 20_000))))


@pytest.mark.parametrize(
    "data",
    [
        b"\xff\xfe\xfd kernel void k() {}",
        b"__kernel void k(__global float *a) { a[0] = '\xc3\x28'; }\n",  # invalid 2-byte sequence
        b"// \xe2\x82 truncated\nint x = \xf0\x9f\x98;\n",  # truncated multi-byte sequences
        b"\xed\xa0\x80 surrogate encoded \xed\xbf\xbf\n",  # UTF-8-encoded surrogates
        b"\xc0\xaf overlong \xf8\x88\x80\x80\x80\n",
        KERNEL[:200] + b"\x80" * 1000 + KERNEL[200:],
    ],
    ids=["leading-ff", "bad-continuation", "truncated", "surrogates", "overlong", "block-in-kernel"],
)
def test_invalid_utf8(data: bytes) -> None:
    _check(data)


def test_str_with_lone_surrogate() -> None:
    _check(("int x = 1; // \udcff\n").encode("utf-8", "surrogatepass"))
    assert grammar.parse("int x = 1; // \udcff\n").root_node is not None


@pytest.mark.parametrize(
    "data",
    [
        b"\x00",
        b"\x00" * 10_000,
        KERNEL.replace(b";", b";\x00"),
        b"__kernel void k(\x00__global int *a) { a[0] = \x001; }",
        b'char *s = "a\x00b";\n',
    ],
    ids=["one", "many", "after-semicolons", "in-params", "in-string"],
)
def test_nul_bytes(data: bytes) -> None:
    _check(data)


def test_five_megabytes() -> None:
    data = KERNEL.replace(b"void step", b"void step_N") * (5_000_000 // len(KERNEL) + 1)
    assert len(data) >= 5_000_000
    tree = grammar.parse(data)
    assert tree.root_node.end_byte == len(data)
    assert tree.root_node.child_count > 1000


@pytest.mark.parametrize(
    "data",
    [
        b"int x = " + b"1 + " * 250_000 + b"1;\n",  # 1 MB expression on one line
        b"// " + b"x" * 1_000_000 + b"\n",  # 1 MB comment
        b'const char *s = "' + b"a" * 1_000_000 + b'";\n',  # 1 MB string literal
        b"#define M " + b"a" * 1_000_000 + b"\n",  # 1 MB macro body
        b"a" * 1_000_000,  # 1 MB identifier
    ],
    ids=["expression", "comment", "string", "define", "identifier"],
)
def test_long_lines(data: bytes) -> None:
    _check(data)


@pytest.mark.parametrize(
    "data",
    [
        b"int x = " + b"(" * 10_000 + b"1" + b")" * 10_000 + b";\n",
        b"int x = " + b"(" * 10_000 + b"1;\n",  # unbalanced
        b"void f() " + b"{" * 10_000 + b"}" * 10_000 + b"\n",
        b"void f() { x = " + b"a[" * 5_000 + b"0" + b"]" * 5_000 + b"; }\n",
        b"#if 1\n" * 2_000 + b"int x;\n" + b"#endif\n" * 2_000,
    ],
    ids=["parens", "unbalanced-parens", "braces", "subscripts", "preproc-if"],
)
def test_deep_nesting(data: bytes) -> None:
    _check(data)
