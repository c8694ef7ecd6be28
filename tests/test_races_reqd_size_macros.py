"""`reqd_work_group_size` written with macros (issue 29, session 22: jocl-samples' NVIDIA
histogram, `reqd_work_group_size(HISTOGRAM256_WORKGROUP_SIZE, 1, 1)` with `#define
HISTOGRAM256_WORKGROUP_SIZE (WARP_COUNT * WARP_SIZE)`, 192): the race check read the digits of
the attribute's text, so the `256` inside the macro's name made a 256-wide model work-group, and
work-items 0 and 192 "both wrote" the bin `pos += 192` gives them both. The size is the value of
each argument, macros expanded and evaluated as the preprocessor does; an argument with no value
gives no size (the default models).

Cases written before the code, held out by crc32(name) % 3 == 0 (inline_cases.split), first
run once the code was done; clang-19 accepts each.

    .venv/bin/python tests/test_races_reqd_size_macros.py    # figures per half
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from inline_cases import CLANG, case_id, clang_check, halves, print_halves  # noqa: E402

from cllint.analysis.lint import LintOptions, lint_tree  # noqa: E402
from cllint.grammar import parse  # noqa: E402

BINS_LOOP = """\
    for (uint pos = get_local_id(0); pos < 256; pos += {size}) {{
        out[get_group_id(0) * 256 + pos] = pos;
    }}
}}
"""

# case -> (source, the (code, line) CL21x reports wanted)
CASES: dict[str, tuple[str, set[tuple[str, int]]]] = {
    "histogram_macro_named_size": ("""\
#define HISTOGRAM256_BIN_COUNT 256
#define LOG2_WARP_SIZE 5U
#define WARP_SIZE (1U << LOG2_WARP_SIZE)
#define WARP_COUNT 6
#define HISTOGRAM256_WORKGROUP_SIZE (WARP_COUNT * WARP_SIZE)
__kernel __attribute__((reqd_work_group_size(HISTOGRAM256_WORKGROUP_SIZE, 1, 1)))
void histogram256(__global uint *d_PartialHistograms, __global const uint *d_Data) {
    __local uint l_Hist[WARP_COUNT * HISTOGRAM256_BIN_COUNT];
    for (uint i = 0; i < (HISTOGRAM256_BIN_COUNT / WARP_SIZE); i++)
        l_Hist[get_local_id(0) + i * (WARP_COUNT * WARP_SIZE)] = d_Data[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint pos = get_local_id(0); pos < HISTOGRAM256_BIN_COUNT; pos += HISTOGRAM256_WORKGROUP_SIZE) {
        uint sum = 0;
        for (uint i = 0; i < WARP_COUNT; i++)
            sum += l_Hist[pos + i * HISTOGRAM256_BIN_COUNT];
        d_PartialHistograms[get_group_id(0) * HISTOGRAM256_BIN_COUNT + pos] = sum;
    }
}
""", set()),
    "literal_size_race_kept": ("""\
__kernel __attribute__((reqd_work_group_size(64, 1, 1)))
void k(__global uint *out) {
    out[get_group_id(0) * 32 + get_local_id(0) % 32] = get_local_id(0);
}
""", {("CL211", 3)}),
    "macro_size_race_kept": ("""\
#define WG (4 * 16)
__kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
void k(__global uint *out) {
    out[get_group_id(0) * 32 + get_local_id(0) % 32] = get_local_id(0);
}
""", {("CL211", 4)}),
    "macro_size_strided_loop_clean": ("#define GROUP256_SIZE 192\n"
                                      "__kernel __attribute__((reqd_work_group_size(GROUP256_SIZE, 1, 1)))\n"
                                      "void k(__global uint *out) {\n" + BINS_LOOP.format(size="GROUP256_SIZE"), set()),
    "nested_macro_size_clean": ("#define BASE32 32\n#define WG256_SIZE (BASE32 * 6)\n"
                                "__kernel __attribute__((reqd_work_group_size(WG256_SIZE, 1, 1)))\n"
                                "void k(__global uint *out) {\n" + BINS_LOOP.format(size="WG256_SIZE"), set()),
    "macro_size_two_dims_race": ("""\
#define WX (2 * 8)
#define WY 8
__kernel __attribute__((reqd_work_group_size(WX, WY, 1)))
void k(__global uint *out) {
    out[get_group_id(0) * 8 + get_local_id(1)] = get_local_id(0);
}
""", {("CL211", 5)}),
    "unsigned_shift_size_clean": ("#define LOG2_W64 6U\n#define W192 (3U << LOG2_W64)\n"
                                  "__kernel __attribute__((reqd_work_group_size(W192, 1, 1)))\n"
                                  "void k(__global uint *out) {\n" + BINS_LOOP.format(size="W192"), set()),
}

OPTIONS = LintOptions(select=("CL21",))


def reported(name: str) -> set[tuple[str, int]]:
    src = CASES[name][0].encode()
    return {(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in lint_tree(f"{name}.cl", src, parse(src), OPTIONS)}


TUNE, HELDOUT = halves(CASES)


@pytest.mark.parametrize("name", TUNE, ids=case_id)
def test_tune_case(name: str) -> None:
    assert reported(name) == CASES[name][1]


def test_heldout_cases() -> None:
    # scored once after the code (BENCHMARKS.md, session 22, JVM hosts)
    assert [n for n in HELDOUT if reported(n) != CASES[n][1]] == []


def test_both_halves_have_both_labels() -> None:
    for half in (TUNE, HELDOUT):
        assert any(CASES[n][1] for n in half) and any(not CASES[n][1] for n in half)


@pytest.mark.skipif(CLANG is None, reason="clang-19 is the oracle that the cases are valid OpenCL C")
@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_clang_accepts_the_case(name: str, tmp_path: Path) -> None:
    path = tmp_path / f"{name}.cl"
    path.write_text(CASES[name][0])
    done = clang_check(path, "-cl-std=CL1.2")
    assert done.returncode == 0, done.stderr


def main() -> int:
    return print_halves(CASES, lambda n: (got := reported(n)) != CASES[n][1] and got)


if __name__ == "__main__":
    raise SystemExit(main())
