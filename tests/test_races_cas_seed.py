"""A compare-and-swap loop's first expected value (issue 29, Anakin's Mvn.cl): a float atomic
add written as `current = *addr; do { expected = current; current = atomic_cmpxchg(addr,
expected, next); } while (current != expected);` reads `*addr` plainly once before the loop.
That read only seeds the loop: a stale value fails the swap and the loop takes the value the
swap returns, as when the read sits inside the loop (which was never reported). So it is no
race with the swaps (CL210/CL211). A plain write beside the loop, a swap tried once with no
retry, or a plain read of another buffer stays a race.

Cases chosen as held out by crc32(name) % 3 == 0 before the code; run once after it."""

from __future__ import annotations

import zlib

import pytest
from test_races_round2 import lint

HELPER_UNION = b"""
union F { unsigned int u; float f; };
void add_f(volatile __global float *addr, float val) {
    union F current, expected, next;
    current.f = *addr;
    do {
        expected.f = current.f;
        next.f = current.f + val;
        current.u = atomic_cmpxchg((volatile __global unsigned int *)addr, expected.u, next.u);
    } while (current.u != expected.u);
}
"""
HELPER_AS = b"""
void add_f(volatile __global float *p, float v) {
    float old = *p, assumed;
    do {
        assumed = old;
        old = as_float(atomic_cmpxchg((volatile __global uint *)p, as_uint(assumed), as_uint(assumed + v)));
    } while (old != assumed);
}
"""
KERNEL = b"kernel void k(global float *sum, global const float *x) { add_f(sum, x[get_global_id(0)]); }\n"

# name -> (source, whether a race is reported)
CASES: dict[str, tuple[bytes, bool]] = {
    "seed_before_do_loop": (HELPER_UNION + KERNEL, False),
    "seed_as_float_casts": (HELPER_AS + KERNEL, False),
    "seed_before_while_loop": (b"""
void add_f(volatile __global float *p, float v) {
    uint old = as_uint(*p);
    uint prev;
    while ((prev = atomic_cmpxchg((volatile __global uint *)p, old, as_uint(as_float(old) + v))) != old)
        old = prev;
}
""" + KERNEL, False),
    "seed_in_kernel_body": (b"""
kernel void k(global float *sum, global const float *x) {
    float v = x[get_global_id(0)];
    float old = sum[0], assumed;
    do {
        assumed = old;
        old = as_float(atomic_cmpxchg((volatile global uint *)sum, as_uint(assumed), as_uint(assumed + v)));
    } while (old != assumed);
}
""", False),
    "seed_in_loop_body": (b"""
void add_f(volatile __global float *addr, float val) {
    union { unsigned int u; float f; } cur, nxt;
    do {
        cur.f = *addr;
        nxt.f = cur.f + val;
    } while (atomic_cmpxchg((volatile __global unsigned int *)addr, cur.u, nxt.u) != cur.u);
}
""" + KERNEL, False),
    "no_loop_one_try": (b"""
kernel void k(global int *lock, global int *out) {
    int old = lock[0];
    atomic_cmpxchg((volatile global int *)lock, old, old + 1);
    out[get_global_id(0)] = old;
}
""", True),
    # held out (crc32 % 3 == 0)
    "seed_local_memory": (b"""
kernel void k(global float *out, global const float *x) {
    local float acc;
    if (get_local_id(0) == 0) acc = 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = x[get_global_id(0)];
    float old = acc, assumed;
    do {
        assumed = old;
        old = as_float(atomic_cmpxchg((volatile local uint *)&acc, as_uint(assumed), as_uint(assumed + v)));
    } while (old != assumed);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (get_local_id(0) == 0) out[get_group_id(0)] = acc;
}
""", False),
    "plain_write_beside": (HELPER_AS + b"""
kernel void k(global float *sum, global const float *x) {
    if (get_global_id(0) == 5) sum[0] = 0.0f;
    add_f(sum, x[get_global_id(0)]);
}
""", True),
    "seed_of_other_buffer": (HELPER_AS + b"""
kernel void k(global float *sum, global int *count, global const float *x, global int *seen) {
    seen[get_global_id(0)] = count[0];
    atomic_inc(count);
    add_f(sum, x[get_global_id(0)]);
}
""", True),
}
HELD_OUT = {n for n in CASES if zlib.crc32(n.encode()) % 3 == 0}


def _run(case: str) -> None:
    src, racy = CASES[case]
    got = lint(src)
    assert bool(got) == racy, [(d.code, d.message) for d in got]


@pytest.mark.parametrize("case", sorted(set(CASES) - HELD_OUT))
def test_tune(case: str) -> None:
    _run(case)


@pytest.mark.parametrize("case", sorted(HELD_OUT))
def test_held_out(case: str) -> None:
    _run(case)


def test_the_split_is_the_hash() -> None:
    assert HELD_OUT == {"seed_local_memory", "plain_write_beside", "seed_of_other_buffer"}
