"""Intel's FPGA arbitrary-precision integers (issue 29, FPGA dialects): with
`cl_intel_arbitrary_precision_integers` the Intel FPGA compiler reads `ap_int<N>` and
`ap_uint<N>` as types (PipeCNN's `ap_int<SUM_BIT> conv_out[LANE_NUM][PE_NUM_Y];`). The parser
reads `a < N > b[...]`, so the names such declarations make are declared for the undeclared-name
rules (CL010/CL011); other names stay reported.

Cases written before the code; the held-out third (crc32 of the name % 3 == 0) was not looked
at while writing it. Each gives a source and the (code, name) undeclared reports expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import case_id, cllint_json

PRAGMA = b"#pragma OPENCL EXTENSION cl_intel_arbitrary_precision_integers : enable\n"

CASES: dict[str, tuple[bytes, set[tuple[str, str]]]] = {
    "apint_array_declarations": (
        PRAGMA + b"kernel void k(global int *out) {\n    ap_int<12> acc[4];\n    ap_uint<3> lane = 0;\n"
                 b"    acc[0] = 1;\n    out[get_global_id(0)] = (int)acc[0] + (int)lane;\n}\n",
        set()),
    "apuint_function_declared": (
        PRAGMA + b"ap_uint<7> narrow(int x) {\n    return (ap_uint<7>)x;\n}\n"
                 b"kernel void k(global int *out) {\n    out[0] = (int)narrow(out[1]);\n}\n",
        set()),
    "apint_other_name_still_reported": (
        PRAGMA + b"kernel void k(global int *out) {\n    ap_int<12> acc = 0;\n    out[0] = (int)acc + missing_value;\n}\n",
        {("CL010", "missing_value")}),
    "apint_in_ifdef_arm": (
        b"#define ARBI_PRECISION\n#ifdef ARBI_PRECISION\n" + PRAGMA + b"#endif\n"
        b"kernel void k(global int *out) {\n#ifdef ARBI_PRECISION\n    ap_int<9> sum_bias[4][2];\n#else\n"
        b"    int sum_bias[4][2];\n#endif\n    sum_bias[0][0] = 3;\n    out[0] = (int)sum_bias[0][0];\n}\n",
        set()),
}


def _undeclared(path: Path) -> set[tuple[str, str]]:
    return {(d["code"], d["message"].split("'")[1]) for d in cllint_json(path.parent, str(path))
            if d["code"] in ("CL010", "CL011")}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_fpga_apint(name: str, tmp_path: Path) -> None:
    source, expected = CASES[name]
    path = tmp_path / "k.cl"
    path.write_bytes(source)
    assert _undeclared(path) == expected
