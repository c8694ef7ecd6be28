"""`convert_T` with a source of another element count (CL014, issue 29 follow-up): the spec's
explicit conversions (6.4.3, "The number of elements in the source and destination vectors must
match") take no scalar for a vector destination and no vector for a scalar one, unlike the
other built-ins, whose scalar arguments widen. Seen in FAST (a tune project), where the editor's
clang layer reported `convert_int4(round(value))` with `float value` and the CLI did not.

Cases written before the change (CL014 lines wanted), clang-19 the oracle for each; held out by
crc32(name) % 3 == 0, run once after."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_lint import reports
from inline_cases import CLANG, case_id, clang_check

HEAD = "kernel void k(global int4 *o4, global int *o, global float *f, global float4 *f4, global uint4 *u4) {\n"
CASES: dict[str, tuple[str, list[int]]] = {
    "scalar_to_vector4": ("    float v = f[0];\n    o4[0] = convert_int4(v);\n", [3]),
    "scalar_to_vector_sat_rte": ("    o4[0] = convert_int4_sat_rte(f[1]);\n", [2]),
    "vector_to_scalar": ("    o[0] = convert_int(f4[0]);\n", [2]),
    "vector2_to_vector4": ("    float2 h = (float2)(1.0f, 2.0f);\n    o4[0] = convert_int4(h);\n", [3]),
    "same_width_ok": ("    o4[0] = convert_int4(f4[0]);\n", []),
    "scalar_to_scalar_ok": ("    o[0] = convert_int_rtz(f[0]);\n", []),
    "vector_from_call_scalar": ("    u4[0] = convert_uint4(round(f[2]));\n", [2]),
    "vector_literal_ok": ("    o4[0] = convert_int4((float4)(f[0]));\n", []),
    "uint_vector_from_round_of_float": ("    float value = f[3];\n    u4[1] = convert_uint4(round(value));\n", [3]),
    "vector8_to_vector8_ok": ("    float8 w = (float8)(0.5f);\n    int8 r = convert_int8(w);\n    o[1] = r.s0;\n", []),
}


def _write(tmp_path: Path, name: str) -> Path:
    path = tmp_path / "k.cl"
    path.write_text(HEAD + CASES[name][0] + "}\n")
    return path


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_convert_takes_its_own_element_count(name: str, tmp_path: Path) -> None:
    got = sorted(d["line"] for d in reports(_write(tmp_path, name)) if d["code"] == "CL014")
    assert got == CASES[name][1]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is the oracle")
@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_the_labels_are_clangs(name: str, tmp_path: Path) -> None:
    done = clang_check(_write(tmp_path, name))
    assert (done.returncode != 0) == bool(CASES[name][1]), done.stderr
