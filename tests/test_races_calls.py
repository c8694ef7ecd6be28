"""CL21x through helper calls, pointers derived from shared memory, and barrier flags
behind macros: what is reported and where, and where the analysis stays silent because
it cannot follow (precision first). Every kernel here is one clang-19 accepts
(test_kernels_compile, OpenCL C 2.0 for the collective)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

CLANG = shutil.which("clang-19")


def lint(src: bytes) -> list:
    return lint_tree("r.cl", src, parse(src), LintOptions(select=("CL21",)))


def codes(src: bytes) -> list[str]:
    return [d.code for d in lint(src)]


STORE = b"""void store(local float *l, int i, float v) { l[i] = v; }
float load(local const float *l, int i) { return l[i]; }
kernel void k(global const float *in, global float *out) {
  local float tile[16];
  int lid = get_local_id(0);
  store(tile, lid, in[get_global_id(0)]);
  out[get_global_id(0)] = load(tile, (lid + 1) & 15);
}
"""


def test_helper_accesses_are_named_at_the_call_with_notes_inside() -> None:
    (d,) = lint(STORE)
    assert d.code == "CL210"
    assert STORE[d.span.start:d.span.end] == b"load(tile, (lid + 1) & 15)"
    assert d.message == ("work-item 1 writes 'tile[1]' in 'store' while work-item 0 reads it as 'l[i]' in 'load'; "
                         "no barrier between")
    spans = [(STORE[n.span.start:n.span.end], n.message) for n in d.notes]
    assert spans == [(b"l[i]", "work-item 1 writes 'tile[1]' here in 'store'"),
                     (b"store(tile, lid, in[get_global_id(0)])", "in this call to 'store'"),
                     (b"l[i]", "work-item 0 reads 'tile[1]' here in 'load'")]
    (edit,) = d.fix.edits
    fixed = STORE[:edit.span.start] + edit.replacement.encode() + STORE[edit.span.end:]
    assert b"  barrier(CLK_LOCAL_MEM_FENCE);\n  out[get_global_id(0)] = load(" in fixed
    assert lint(fixed) == []


REDUCE = b"""void add(local float *l, int i, int s) { if (i < s) l[i] += l[i + s]; }
void step(local float *l, int i, int s) { add(l, i, s); }
kernel void k(global float *out, local float *l) {
  int lid = get_local_id(0);
  l[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = get_local_size(0) / 2; s > 0; s >>= 1) {
    step(l, lid, s);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[0] = l[0];
}
"""


def test_helper_two_levels_down_and_a_loop_counter_through_an_argument() -> None:
    assert lint(REDUCE) == []
    racy = REDUCE.replace(b"    barrier(CLK_LOCAL_MEM_FENCE);\n  }", b"  }")
    (d,) = lint(racy)
    assert d.code == "CL210" and "in 'add'" in d.message
    assert racy[d.span.start:d.span.end] == b"step(l, lid, s)"  # the kernel's call, two levels up


@pytest.mark.parametrize("body", PUBLISH := [
    # same value stored by every work-item: benign, as for stores in the kernel
    b"publish(l, 1.0f); barrier(CLK_LOCAL_MEM_FENCE); out[lid] = l[0];",
    # only work-item 0 stores, and a barrier comes before the reads
    b"if (lid == 0) publish(l, in[lid]); barrier(CLK_LOCAL_MEM_FENCE); out[lid] = l[0];",
])
def test_helper_stores_that_do_not_race(body: bytes) -> None:
    assert lint(_publish(body)) == []


def _publish(body: bytes) -> bytes:
    return (b"void publish(local float *l, float v) { l[0] = v; }\n"
            b"kernel void k(global const float *in, global float *out, local float *l) {\n"
            b"  int lid = get_local_id(0);\n  " + body + b"\n}\n")


def test_every_work_item_storing_its_own_value_through_a_helper_races() -> None:
    src = (b"void publish(local float *l, float v) { l[0] = v; }\n"
           b"kernel void k(global const float *in, local float *l) {\n"
           b"  publish(l, in[get_global_id(0)]);\n}\n")
    (d,) = lint(src)
    assert d.code == "CL210" and d.message.startswith("work-items 0 and 1 both write 'l[0]'")


@pytest.mark.parametrize("helper", HELPERS := [
    # the index is loaded from memory
    b"void h(local float *l, global const int *idx, int i) { l[idx[i]] = 1.0f + i; }",
    # a loop inside the helper whose bound is the helper's parameter (not enumerated), at its own cell
    b"void h(local float *l, global const int *idx, int i) { for (int j = 0; j < i; j++) l[i] += j; }",
    # the parameter is reassigned
    b"void h(local float *l, global const int *idx, int i) { i = idx[i]; l[i] = 1.0f + i; }",
    # the pointer parameter is moved
    b"void h(local float *l, global const int *idx, int i) { l += idx[0]; l[i] = 1.0f + i; }",
    # a barrier after the write: the write ends the interval before the call
    b"void h(local float *l, global const int *idx, int i) { l[i + 1] = i; barrier(CLK_LOCAL_MEM_FENCE); }",
    # a barrier on some paths only: not followed (CL2xx's business)
    b"void h(local float *l, global const int *idx, int i) { if (idx[0]) barrier(CLK_LOCAL_MEM_FENCE); "
    b"l[i + 1] = i; }",
    # a collective inside: not followed
    b"void h(local float *l, global const int *idx, int i) { barrier(CLK_LOCAL_MEM_FENCE); l[i + 1] = i; "
    b"work_group_barrier(CLK_LOCAL_MEM_FENCE); l[0] = work_group_reduce_add(i); }",
    # between two barriers of its own: not paired with anything outside
    b"void h(local float *l, global const int *idx, int i) { barrier(CLK_LOCAL_MEM_FENCE); l[i + 1] = i; "
    b"barrier(CLK_LOCAL_MEM_FENCE); }",
    # arms of an `#if` the file does not decide (no work-item takes both)
    b"void h(local float *l, global const int *idx, int i) {\n#ifdef SHIFTED\n  l[i + 1] = i;\n#else\n"
    b"  l[i] = i;\n#endif\n}",
])
def test_silent_where_a_helper_is_not_followed(helper: bytes) -> None:
    assert lint(_helper(helper)) == []


def test_a_helpers_loop_is_followed() -> None:
    # (round 14: its counter's passes are enumerated; was "not followed" above) work-item 0's
    # second pass and work-item 1's first both write l[1], values 1 and 0, with no barrier
    got = lint(_helper(b"void h(local float *l, global const int *idx, int i) { for (int j = 0; j < 2; j++) "
                       b"l[i + j] = j; }"))
    assert [d.code for d in got] == ["CL210"] and "'l[1]'" in got[0].message, got


def _helper(helper: bytes) -> bytes:
    return (helper + b"\nkernel void k(global const int *idx, global float *out, local float *l) {\n"
            b"  int lid = get_local_id(0);\n  h(l, idx, lid);\n  out[lid] = l[lid];\n}\n")


SWAP = b"""float swap_step(local float *l, int i, float v) {
  float old = l[i ^ 1];
  barrier(CLK_LOCAL_MEM_FENCE);
  l[i] = v;
  return old;
}
kernel void k(global float *out, local float *l) {
  int lid = get_local_id(0);
  float v = lid;
  l[lid] = v;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int r = 0; r < 4; r++) {
    v = swap_step(l, lid, v + 1.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  out[lid] = v;
}
"""


def test_a_helpers_barrier_splits_its_own_accesses() -> None:
    """Before its barrier it reads the partner's slot, after it writes its own: a loop
    around the call needs a barrier between one call's write and the next call's read."""
    assert lint(SWAP) == []
    racy = SWAP.replace(b"    barrier(CLK_LOCAL_MEM_FENCE);\n  }", b"  }")
    (d,) = lint(racy)
    assert d.code == "CL210" and d.message.startswith("work-item 1 writes 'l[1]' in 'swap_step' while work-item 0 "
                                                      "reads it as 'l[i ^ 1]' in 'swap_step'")
    assert racy[d.span.start:d.span.end] == b"swap_step(l, lid, v + 1.0f)" and d.fix is None
    # two syncing calls in one statement: which barrier comes first is not modelled
    two = racy.replace(b"v = swap_step(l, lid, v + 1.0f);", b"v = swap_step(l, lid, v) + swap_step(l, lid, v);")
    assert lint(two) == []


STAGES = b"""void sync_store(local float *l, int i, float v) { l[i] = v; barrier(CLK_LOCAL_MEM_FENCE); }
float sync_load(local float *l, int i) { barrier(CLK_LOCAL_MEM_FENCE); return l[i]; }
kernel void k(global const float *in, global float *out, local float *l) {
  int lid = get_local_id(0), n = get_local_size(0);
  for (int r = 0; r < 3; r++) {
    sync_store(l, lid, in[get_global_id(0)] + r);
    out[get_global_id(0)] += l[n - 1 - lid];
    out[get_global_id(0)] += sync_load(l, (lid + 1) % n);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}
"""


def test_one_iterations_read_after_a_helpers_barrier_meets_the_next_ones_write() -> None:
    """Oclgrind reports this race (read in sync_load, then sync_store's write in the next
    iteration) once the loop's trailing barrier is gone."""
    assert lint(STAGES) == []
    racy = STAGES.replace(b"    barrier(CLK_LOCAL_MEM_FENCE);\n  }", b"  }")
    (d,) = lint(racy)
    assert d.message == ("work-item 15 reads 'l[0]' in 'sync_load' while work-item 0 writes it as 'l[i]' in "
                         "'sync_store'; no barrier between")
    assert racy[d.span.start:d.span.end] == b"sync_store(l, lid, in[get_global_id(0)] + r)"


def test_recursion_stays_silent() -> None:
    src = b"""void h(local float *l, int i) { if (i > 0) h(l, i - 1); l[i + 1] = i; }
kernel void k(global float *out, local float *l) {
  int lid = get_local_id(0);
  h(l, lid);
  out[lid] = l[lid];
}
"""
    assert codes(src) in ([], ["CL210"])  # terminates; the one level it reads is a real race


@pytest.mark.parametrize("decl,racy", POINTERS := [
    (b"local float *p = t + lid; p[1] = lid;", True),
    (b"local float *p = 1 + t; p[lid] = lid;", True),
    (b"local float *p = &t[lid + 1]; p[0] = lid;", True),
    (b"local float *p = t + lid + 2; p[-1] = lid;", True),
    (b"local float *p = t + 16; p[lid - 15] = lid;", True),
    (b"local float *p = t + lid; local float *q = p + 1; q[-1] = lid;", False),
    (b"*(t + lid + 1) = lid;", True),
    (b"local float *p = &t[lid]; *p = lid;", False),
    (b"local float *p = &t[lid]; *(p + 1) = lid;", True),
    (b"if (lid == 0) *t = 1.0f; barrier(CLK_LOCAL_MEM_FENCE);", False),
    (b"local float *p = &t[lid]; p[0] = lid;", False),
    # a cast to its own element type views the same elements (issue 31, round 3)
    (b"local float *p = (local float *)t + 1; p[lid] = lid;", True),
    # not followed: a cast through a type of no known size, a pointer assigned twice
    (b"local float *p = (local float *)(local void *)t + 1; p[lid] = lid;", False),
    (b"local float *p = t; p = t + 1; p[lid] = lid;", False),
    # a row of a 2-D array is a pointer into its bytes in order (round 12): u[0][lid + 1] is read by lid + 1
    (b"local float *p = u[0] + 1; p[lid] = lid;", True),
    (b"local float *p = u[1] + 1; p[lid] = lid;", False),
])
def test_pointers_derived_from_a_local_array(decl: bytes, racy: bool) -> None:
    assert codes(_pointer(decl)) == (["CL210"] if racy else [])


def _pointer(decl: bytes) -> bytes:
    return (b"kernel void k(global float *out) {\n  local float t[32];\n  local float u[2][32];\n"
            b"  int lid = get_local_id(0);\n  " + decl + b"\n  out[lid] = t[lid] + u[0][lid];\n}\n")


DEREF = b"""void put(local float *p, float v) { *p = v; }
kernel void k(global float *out, local float *l) {
  int lid = get_local_id(0);
  put(&l[lid], 1.0f + lid);
  out[lid] = l[lid];
}
"""


def test_dereferenced_pointer_passed_to_a_helper() -> None:
    assert lint(DEREF) == []
    (d,) = lint(DEREF.replace(b"&l[lid]", b"&l[lid ^ 1]"))
    assert d.message.startswith("work-item 1 writes 'l[0]' in 'put' while work-item 0 reads it as 'l[lid]'")


POINTER_ARG = b"""void put2(local float *p, float a) { p[0] = a; p[1] = -a; }
kernel void k(global const float *in, global float *out, local float *l) {
  int lid = get_local_id(0);
  put2(l + 2 * lid, in[lid]);
  out[lid] = l[2 * lid + 1];
}
"""


def test_pointer_argument_to_a_helper_carries_its_offset() -> None:
    src = POINTER_ARG
    assert lint(src) == []
    assert codes(src.replace(b"l[2 * lid + 1]", b"l[2 * lid + 2]")) == ["CL210"]


FENCE = b"""#define F CLK_GLOBAL_MEM_FENCE
kernel void k(global float *out, local float *l) {
  int lid = get_local_id(0);
  l[lid] = lid;
  barrier(F);
  out[lid] = l[(lid + 1) & 15];
}
"""


@pytest.mark.parametrize("defines,expected", FENCES := [
    (b"#define F CLK_GLOBAL_MEM_FENCE", ["CL212"]),
    (b"#define F CLK_LOCAL_MEM_FENCE", []),
    (b"#define G CLK_GLOBAL_MEM_FENCE\n#define F (G)", ["CL212"]),
    (b"#define F CLK_LOCAL_MEM_FENCE|CLK_GLOBAL_MEM_FENCE", []),
    (b"#define F CLK_LOCAL_MEM_FENCE\n#undef F\n#define F CLK_GLOBAL_MEM_FENCE", ["CL212"]),
    # unknown: defined in an arm the file does not decide, function-like, or not a flag
    (b"#ifdef USE_GLOBAL\n#define F CLK_GLOBAL_MEM_FENCE\n#else\n#define F CLK_LOCAL_MEM_FENCE\n#endif", []),
    (b"#define FL() CLK_GLOBAL_MEM_FENCE\n#define F FL()", []),
    (b"#define F flags", []),
])
def test_fence_flags_behind_macros(defines: bytes, expected: list[str]) -> None:
    assert codes(_fence(defines)) == expected


def _fence(defines: bytes) -> bytes:
    src = FENCE.replace(b"#define F CLK_GLOBAL_MEM_FENCE", defines)
    return src.replace(b"local float *l)", b"local float *l, int flags)") if b"flags" in defines else src


def _all_kernels() -> list[bytes]:
    """Every kernel above but the recursive one (OpenCL C has no recursion)."""
    return [STORE, *map(_publish, PUBLISH), *map(_helper, HELPERS), *(_pointer(d) for d, _ in POINTERS),
            *(_fence(d) for d, _ in FENCES), POINTER_ARG, REDUCE, DEREF, SWAP, STAGES]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
def test_kernels_compile(tmp_path: Path) -> None:
    for i, src in enumerate(_all_kernels()):
        path = tmp_path / f"k{i}.cl"
        path.write_bytes(src)
        proc = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-fsyntax-only", "-Xclang",
                               "-finclude-default-header", str(path)], capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
