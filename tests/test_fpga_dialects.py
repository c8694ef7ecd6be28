"""FPGA vendors' OpenCL C dialects (issue 29): kernels written for Intel's FPGA compiler use
channels (`cl_intel_channels`, formerly `cl_altera_channels`: `channel T c;` at program scope,
`read_channel_intel`, `write_channel_intel`, their `_nb_` non-blocking forms, the `_altera`
spellings), and kernels for Xilinx's compiler declare pipes at program scope with
`__attribute__((xcl_reqd_pipe_depth(N)))` and call `read_pipe_block`/`write_pipe_block`. The
vendors' compilers accept them (their programming guides define them); clang-19 does not know
them, so there is no clang oracle here. cllint knows these built-ins and reads such a pipe as
the vendor's, and still reports what the dialect does not explain (an undeclared helper).

Cases in tests/rules/fixtures/fpga_dialects/{tune,heldout} (`// expect: CODE line N` or
`// expect: none`, error reports), written before the change; held out by crc32(name) % 3 == 0,
run once after."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from fixture_lint import fixture_id, reports

CASES = sorted((Path(__file__).parent / "rules" / "fixtures" / "fpga_dialects").glob("*/*.cl"))
_EXPECT = re.compile(r"^// expect: (CL\d{3}) line (\d+)$", re.M)


@pytest.mark.parametrize("path", CASES, ids=fixture_id)
def test_a_dialects_built_ins_are_known(path: Path) -> None:
    wanted = sorted((code, int(line)) for code, line in _EXPECT.findall(path.read_text()))
    got = sorted((d["code"], d["line"]) for d in reports(path) if d["severity"] == "error")
    assert got == wanted


def test_a_program_scope_xilinx_pipe_is_not_a_portability_warning() -> None:
    """The pipe is the vendor compiler's, not OpenCL C 2.0's kernel-argument pipe: no CL301."""
    (path,) = [p for p in CASES if p.stem == "xilinx_program_scope_pipes"]
    assert [d for d in reports(path) if d["code"] in ("CL301", "CL303") and d["line"] == 3] == []
