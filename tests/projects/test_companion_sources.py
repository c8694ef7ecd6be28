"""OpenCL C kept in files with a C or C++ suffix (an IDE highlights them) that a host joins into
one program with an OpenCL source of the same folder, named in one list: `{dir +
"/kernels/head.cpp", dir + "/kernels/math.cpp", dir + "/kernels/main.cl"}` (the order
important). The OpenCL source is read after them; the companions are not linted themselves.
A C/C++ file named beside a kernel elsewhere (a host's own sources in a build list, or a file in
another folder) is no companion. Cases written before the change; `heldout` scored once after."""
from __future__ import annotations

from pathlib import Path

import pytest
from labelled_workspaces import check_json, write_workspace

_MAIN = "kernel void k(global float *x) { x[get_global_id(0)] = twice(x[get_global_id(0)]) + OFFSET; }\n"
_HEAD = "#define OFFSET 1.0f\n"
_MATH = "float twice(float v) { return 2.0f * v; }\n"

CASES = {
    "tune/array_of_paths": ({
        "host/run.cpp": '#include <string>\nvoid build() {\n  const std::string dir = ".";\n'
                        '  std::string files[3] = { dir + "/kernels/head.cpp", dir + "/kernels/math.cpp",\n'
                        '                           dir + "/kernels/main.cl" };  // the order matters\n'
                        '  load_and_build(files, 3);\n}\n',
        "kernels/head.cpp": _HEAD, "kernels/math.cpp": _MATH, "kernels/main.cl": _MAIN,
    }, []),
    "tune/control_other_folder": ({
        "host/run.cpp": '#include <string>\nvoid build() {\n'
                        '  std::string files[2] = { "host/util.cpp", "kernels/main.cl" };\n  go(files);\n}\n',
        "host/util.cpp": _MATH, "kernels/main.cl": _MAIN,
    }, ["CL011"]),
    "heldout/c_array_literals": ({
        "src/app.c": '#include <CL/cl.h>\nstatic const char *program_files[] = {\n'
                     '    "cl/defs.h", "cl/helpers.c", "cl/entry.cl",\n};\n'
                     'int main(void) { return build_from(program_files, 3); }\n',
        "cl/defs.h": _HEAD, "cl/helpers.c": _MATH, "cl/entry.cl": _MAIN,
    }, []),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_companions_are_read_before_the_kernel(case: str, tmp_path: Path) -> None:
    files, wanted = CASES[case]
    write_workspace(tmp_path, files)
    got = sorted({r["code"] for r in check_json(tmp_path) if r["severity"] == "error"})
    assert got == wanted
