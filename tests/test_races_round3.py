"""CL21x on the round-3 labelled race set (issue 31, what round 2 left): pointers chosen by an
if/else, `async_work_group_copy` / `async_work_group_strided_copy` (the copy reads its source
and writes its destination until `wait_group_events`), byte aliasing through a cast to a
`uchar *` (or `float4 *`) view, and more of round 2's classes in styles it did not cover
(tests/rules/fixtures/races/round3/). `tune/` is what the work was done against; `heldout/`
(a third, written with the rest before any code, picked by hash and set aside) is only scored.
Every label is confirmed by `oclgrind-kernel --data-races` at multi-group launch sizes
(tests/test_races_oclgrind.py reads every fixture under races/, these included).

    .venv/bin/python tests/test_races_round3.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round3"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path)


def test_pointer_chosen_by_if_else_names_both_accesses() -> None:
    src = b"""kernel void k(global float *out) {
  local float a[16], b[16];
  int lid = get_local_id(0);
  local float *dst;
  if (lid < 16)
    dst = a;
  else
    dst = b;
  dst[lid & 15] = lid;
  out[lid] = a[(lid + 1) & 15];
}
"""
    (d,) = lint(src)
    assert d.code == "CL210"
    assert d.message == ("work-item 1 writes 'a[1]' while work-item 0 reads it as 'a[(lid + 1) & 15]'; "
                         "no barrier between")
    assert src[d.notes[0].span.start:d.notes[0].span.end] == b"dst[lid & 15]"
    # every item of a 16-wide group takes the `then` arm: b is never written
    assert lint(src.replace(b"out[lid] = a[", b"out[lid] = b[")) == []


@pytest.mark.parametrize("body, racy", [
    (b"local float *p = a; if (lid >= 8) p = b; p[lid & 7] = lid; out[lid] = a[(lid + 1) & 7];", True),
    (b"local float *p = a; if (lid & 1) p = b; p[lid >> 1] = lid; out[lid] = b[lid >> 1];", True),
    (b"local float *p = a; if (lid >= 8) p = b; p[lid] = lid; out[lid] = a[lid];", False),
    # read before the choice: which array it reads is the initial one, not followed
    (b"local float *p = a; out[lid] = p[lid + 1]; if (lid >= 8) p = b; p[lid] = lid;", False),
    # the condition's variable changes after the choice: not followed
    (b"int c = lid; local float *p = a; if (c >= 8) p = b; c = 0; p[lid & 7] = lid;"
     b" out[lid] = a[(lid + 1) & 7];", False),
])
def test_if_else_choices_followed_only_where_exact(body: bytes, racy: bool) -> None:
    src = (b"kernel void k(global float *out) {\n  local float a[16], b[16];\n  int lid = get_local_id(0);\n  "
           + body + b"\n}\n")
    assert bool(lint(src)) == racy


ASYNC = b"""kernel void k(global const float *in, global float *out) {
  local float tile[32];
  int lid = get_local_id(0);
  STORE
  event_t e = async_work_group_copy(out + get_group_id(0) * 32, tile, 32, 0);
  AFTER
  wait_group_events(1, &e);
  LATER
}
"""


def _async(store: bytes = b"", after: bytes = b"", later: bytes = b"") -> bytes:
    return ASYNC.replace(b"STORE", store).replace(b"AFTER", after).replace(b"LATER", later)


def test_async_copy_reads_its_source_after_unfenced_stores() -> None:
    src = _async(store=b"tile[lid] = in[get_global_id(0)];")
    (d,) = lint(src)
    assert d.code == "CL210"
    assert d.message == ("work-item 0 writes 'tile[0]' while work-item 1 reads it through 'async_work_group_copy'; "
                         "no barrier between")
    (edit,) = d.fix.edits  # a barrier before the copy orders the stores and the copy
    assert edit.replacement.startswith("barrier(CLK_LOCAL_MEM_FENCE);")
    assert lint(_async(store=b"tile[lid] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);")) == []


def test_async_copy_width_is_the_model_work_group() -> None:
    """Work-groups that each copy 32 elements at `get_group_id(0) * 32` are 32 wide: each
    work-group's copy meets its own work-items' `out[gid]`, not a neighbour's."""
    fenced = b"tile[lid] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);"
    assert lint(_async(store=fenced, later=b"out[get_global_id(0)] *= 2.0f;")) == []
    (d,) = lint(_async(store=fenced, after=b"out[get_global_id(0)] = 0.0f;"))
    assert d.code == "CL211" and d.message.startswith("work-item 1 writes 'out[0]' through 'async_work_group_copy'")


def test_async_copy_runs_until_its_wait() -> None:
    fenced = b"tile[lid] = in[get_global_id(0)]; barrier(CLK_LOCAL_MEM_FENCE);"
    (d,) = lint(_async(store=fenced, after=b"barrier(CLK_LOCAL_MEM_FENCE); tile[lid] = 0.0f;"))
    assert d.code == "CL210" and d.fix is None  # a barrier does not end the copy: its wait does
    assert d.message == ("work-item 1 reads 'tile[0]' through 'async_work_group_copy' while work-item 0 writes it "
                         "as 'tile[lid]'; the copy is not waited for ('wait_group_events') between")
    assert lint(_async(store=fenced, later=b"tile[lid] = 0.0f;")) == []
    # a copy's count the model cannot bound (a kernel argument's sample): not judged
    src = _async(store=fenced, after=b"tile[lid] = 0.0f;").replace(b"tile, 32, 0)", b"tile, n, 0)")
    assert lint(src.replace(b"global float *out)", b"global float *out, int n)")) == []


def test_bytes_through_a_cast_pointer() -> None:
    src = b"""kernel void k(global float *f) {
  int gid = get_global_id(0);
  f[gid] = 1.5f;
  global uchar *b = (global uchar *)f;
  b[gid * 4 + 4] = 0xff;
}
"""
    (d,) = lint(src)
    assert d.code == "CL211"
    assert d.message == ("work-item 1 writes byte 0 of 'f[1]' while work-item 0 writes it as 'b[gid * 4 + 4]'; "
                         "no barrier between")
    assert lint(src.replace(b"gid * 4 + 4", b"gid * 4 + 3")) == []  # its own float's last byte
    # a view of bigger elements: each float4 covers four floats
    v4 = b"""kernel void k(global float *out) {
  local float t[128];
  int lid = get_local_id(0);
  local float4 *v = (local float4 *)t;
  v[lid] = (float4)(lid);
  out[lid] = t[lid * 4 + OFF];
}
"""
    assert [d.code for d in lint(v4.replace(b"OFF", b"5"))] == ["CL210"]
    assert lint(v4.replace(b"OFF", b"3")) == []


def test_do_while_body_runs_at_least_once() -> None:
    src = b"""kernel void k(global float *out) {
  local float t[32];
  int lid = get_local_id(0);
  t[lid] = lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int s = 16;
  do {
    if (lid < s)
      t[lid] += t[lid + s];
    SYNC
    s >>= 1;
  } while (s > 0);
  out[lid] = t[0];
}
"""
    (d,) = lint(src.replace(b"SYNC", b""))
    assert d.code == "CL210" and "'t[lid + s]'" in d.message
    assert lint(src.replace(b"SYNC", b"barrier(CLK_LOCAL_MEM_FENCE);")) == []


@pytest.mark.parametrize("index, racy", [
    (b"(lid + 5) & 31", True),  # wraps at 32: written for more than 5 work-items
    (b"(lid + 5) % 32", True),
    # round 10: `t[64]` says the work-group spans the places past the shift (59 of them): a
    # 4-wide launch's halo would not need 64
    (b"lid + 5", True),
    (b"(lid + 5) % n", False),
])
def test_wrapping_index_grows_the_small_model(index: bytes, racy: bool) -> None:
    src = (b"kernel void k(global float *out, int n) {\n  local float t[64];\n  int lid = get_local_id(0);\n"
           b"  t[lid] = lid;\n  out[lid] = t[" + index + b"];\n}\n")
    assert bool(lint(src)) == racy


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
