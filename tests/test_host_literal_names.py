"""Names a host hands over as string arguments (issue 29, item 2a): SkelCL renames the user's
function to the name its skeleton kernels call (`program.renameFunction(funcName, "SCL_FUNC")`,
`transferArguments(f, 1, "SCL_FUNC")`), so `SCL_FUNC(res, x)` in `ReduceKernel.cl` is the
host's name, not one to pass with `-D` (CL012). A macro-style word a host passes whole as a
string argument of a call is the host's. A word in a comment, a string assigned and not passed,
a string with more than the word, and other words stay reported.

Cases written before the code; the held-out third (crc32 of the name % 3 == 0) was not looked
at while writing it. Each names its files and the undeclared reports (code, name) expected."""

from __future__ import annotations

from pathlib import Path

import pytest

from inline_cases import case_id, cllint_json, write_files

KERNEL = b"""kernel void reduce(global const float *in, global float *out, uint n) {
    uint i = get_global_id(0);
    float res = in[i];
    for (uint j = i + get_global_size(0); j < n; j += get_global_size(0))
        res = USER_OP(res, in[j]);
    out[i] = res;
}
"""

CASES: dict[str, tuple[dict[str, bytes], set[tuple[str, str]]]] = {
    "skeleton_renamed_function": (
        {"reduce.cl": KERNEL,
         "reduce.cpp": b'void Reduce::prepare(Program& program, const std::string& funcName) {\n'
                       b'    program.transferArguments(funcName, 1, "USER_OP");\n'
                       b'    program.renameFunction(funcName, "USER_OP");\n}\n'},
        set(),
    ),
    "literal_in_comment_only": (
        {"reduce.cl": KERNEL,
         "reduce.cpp": b'// the user function becomes "USER_OP" (see renameFunction)\nint prepare() { return 0; }\n'},
        {("CL012", "USER_OP")},
    ),
    "literal_assigned_not_passed": (
        {"reduce.cl": KERNEL,
         "reduce.cpp": b'static const char *kOpName = "USER_OP";\nint prepare() { return 0; }\n'},
        {("CL012", "USER_OP")},
    ),
    "different_word_still_reported": (
        {"reduce.cl": KERNEL,
         "reduce.cpp": b'void prepare(Program& p, const std::string& f) {\n    p.renameFunction(f, "USER_FN");\n}\n'},
        {("CL012", "USER_OP")},
    ),
    "python_host_passes_name": (
        {"reduce.cl": KERNEL,
         "host.py": b'import pyopencl as cl\n\ndef build(ctx, src, user):\n'
                    b'    src = rename_function(src, user, "USER_OP")\n    return cl.Program(ctx, src).build()\n'},
        set(),
    ),
    "literal_with_spaces_is_no_name": (
        {"reduce.cl": KERNEL,
         "reduce.cpp": b'void prepare(Log& log) {\n    log.write("USER_OP is the user function");\n}\n'},
        {("CL012", "USER_OP")},
    ),
}


def _undeclared(root: Path) -> set[tuple[str, str]]:
    return {(d["code"], d["message"].split("'")[1]) for d in cllint_json(root, ".")
            if d["code"] in ("CL010", "CL011", "CL012")}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_host_literal_name(name: str, tmp_path: Path) -> None:
    files, expected = CASES[name]
    write_files(tmp_path, files)
    assert _undeclared(tmp_path) == expected
