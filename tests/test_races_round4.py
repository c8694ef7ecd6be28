"""CL21x on the round-4 labelled race set (issue 31): two plain stores to one `__global`
location from two work-groups (the same store in every work-group, `p[lid] = ...` or
`out[0] = ...` by each group's item 0, and neighbouring groups' ranges that overlap), reported
when the values two work-groups store can differ; and slices at `stride * group id` with a
stride from a kernel argument (`step /= sizeof(*d)`), each group's own
(tests/rules/fixtures/races/round4/). `tune/` is what the work was done against; `heldout/`
(a third, picked by hash within each class and label, written with the rest before any code
and set aside) is only scored. Every label is confirmed by `oclgrind-kernel --data-races` at
multi-group launch sizes (tests/test_races_oclgrind.py reads every fixture under races/).

    .venv/bin/python tests/test_races_round4.py    # kernel-level figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from test_races_round2 import check_case, figures, lint, reported

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "races" / "round4"
TUNE = sorted((FIXTURES / "tune").glob("*.cl"))
HELDOUT = sorted((FIXTURES / "heldout").glob("*.cl"))
# A slice at `stride * group id` whose work-items also write before its start (`row[-1]`): the
# neighbour's last element when the stride is exactly what a group touches; the model samples
# an argument's stride far wider (CL211's rule), so the two slices never meet there.
KNOWN_MISSES = frozenset({"pos_stride_derived_quarter_wrong_side"})


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    check_case(path, KNOWN_MISSES)


def test_one_store_in_every_work_group_names_two_work_groups() -> None:
    src = b"kernel void k(global int *p) {\n  int lid = get_local_id(0);\n  p[lid] = VALUE;\n}\n"
    (d,) = lint(src.replace(b"VALUE", b"get_group_id(0)"))
    assert d.code == "CL211" and d.fix is None
    assert d.message == ("work-item 0 of work-group 0 and work-item 0 of work-group 1 both write 'p[0]'; "
                         "no barrier can order two work-groups")
    # the same value from every work-group: benign, as within one (the same-value policy)
    for value in (b"lid * 2", b"1", b"get_num_groups(0)", b"get_local_size(0) - lid"):
        assert lint(src.replace(b"VALUE", value)) == [], value


@pytest.mark.parametrize("value, racy", [
    (b"in[lid]", False),  # every work-group loads the same element
    (b"in[get_global_id(0)]", True),
    (b"in[lid] + get_group_id(0)", True),
    (b"t[lid]", False),  # local memory holding what every work-group stores alike
    (b"t[0] + t[15]", False),
])
def test_loaded_values_follow_what_was_stored(value: bytes, racy: bool) -> None:
    src = (b"kernel void k(global const float *in, global float *out) {\n  local float t[16];\n"
           b"  int lid = get_local_id(0);\n  t[lid] = lid * 0.5f;\n  barrier(CLK_LOCAL_MEM_FENCE);\n"
           b"  if (lid == 0) out[0] = VALUE;\n}\n")
    assert bool(lint(src.replace(b"VALUE", value))) == racy
    # local memory filled from the work-group's own inputs: its values follow the group
    grouped = src.replace(b"t[lid] = lid * 0.5f", b"t[lid] = in[get_global_id(0)]")
    assert bool(lint(grouped.replace(b"VALUE", value))) == (racy or value.startswith(b"t["))


def test_piglit_kernels_written_for_one_work_group() -> None:
    """piglit's global_memory_one_work_group: each work-group stores local ids in its slice of
    `tmp` and reads them back: every work-group stores the same values at out[index]."""
    src = b"""kernel void k(global int *out, global int *tmp_mem) {
  int group_offset = get_group_id(0) * get_local_size(0);
  int index = get_local_id(0);
  int index2;
  tmp_mem[group_offset + index] = index;
  index2 = index + 1;
  index2 = (index2 % 16);
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[index] = tmp_mem[group_offset + index2];
}
"""
    assert lint(src) == []
    assert [d.code for d in lint(src.replace(b"= index;", b"= get_global_id(0);"))] == ["CL211"]


def test_unevaluated_operands_read_nothing() -> None:
    src = b"""kernel void k(global float *d, int step) {
  step /= SIZE;
  global float *base = d + step * get_group_id(0);
  const float v = base[get_local_id(0)];
  base[get_local_id(0)] = v * 2.0f;
}
"""
    for size in (b"sizeof(*d)", b"sizeof(d[0])", b"sizeof(float)", b"vec_step(d[1])"):
        assert lint(src.replace(b"SIZE", size)) == [], size
    # a slice that starts one stride later for every work-group, written past its end: the next one's
    racy = src.replace(b"SIZE", b"sizeof(*d)").replace(b"v * 2.0f;", b"v * 2.0f;\n  base[get_local_id(0) + step] = 0.0f;")
    assert [d.code for d in lint(racy)] == ["CL211"]


if __name__ == "__main__":
    for label, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        print(label, figures(cases))
    sys.exit(0)
