"""Programs a host joins from sources it first reads into variables (issue 29, item 2a): JOCL's
`String source0 = readFile("kernels/QuadFloat.cl"); ... clCreateProgramWithSource(context, 2,
new String[]{ source0, source1 }, null, null)`, C's `const char *srcs[] = {a, b};`, Python's
`cl.Program(ctx, a + b)`. The sources listed in one braced list (or joined with `+`), each a
variable bound to one kernel file, are read in that order. Written before the change; the
held-out third was run once the code was done."""

from __future__ import annotations

import json
from pathlib import Path

from test_project_model import check, rows, write

COMMON = "#define SCALE 3\nfloat scaled(float x) { return x * SCALE; }\n"
# the same names in another source of the folder: no fragment inference can choose
OTHER = "#define SCALE 5\nfloat scaled(float x) { return x / SCALE; }\n__kernel void o(__global float *a) { a[0] = scaled(a[0]); }\n"
MAIN = "__kernel void k(__global float *a) { size_t i = get_global_id(0); a[i] = scaled(a[i]) + SCALE; }\n"


def _main_rows(root: Path) -> list[tuple[str, str, int]]:
    return [r for r in rows(check(".", cwd=root)) if r[0] == "main.cl"]


def _main_note(root: Path) -> str:
    (row,) = [r for r in json.loads(check(".", cwd=root).stdout) if Path(r["path"]).name == "main.cl"]
    return row["message"]


JAVA = ('class S {\n  void build() {\n    String source0 =\n        readFile("src/kernels/common.cl");\n'
        '    String source1 =\n        readFile("src/kernels/main.cl");\n'
        '    cl_program program = clCreateProgramWithSource(context, 2,\n        new String[]{ source0, source1 }, null, null);\n'
        '    clBuildProgram(program, 0, null, "-cl-mad-enable", null, null);\n  }\n}\n')


# -- tune ----------------------------------------------------------------------------------


def test_a_java_host_joins_two_read_sources_tune(tmp_path: Path) -> None:
    write(tmp_path, {"src/S.java": JAVA, "src/kernels/common.cl": COMMON, "src/kernels/other.cl": OTHER,
                     "src/kernels/main.cl": MAIN})
    assert _main_rows(tmp_path) == [("main.cl", "CL007", 1)]
    assert "S.java" in _main_note(tmp_path)


def test_a_c_host_lists_read_sources_in_an_array_tune(tmp_path: Path) -> None:
    host = ('int main(void) {\n  char *a = load_source("common.cl");\n  char *b = load_source("main.cl");\n'
            '  const char *srcs[] = {a, b};\n  cl_program p = clCreateProgramWithSource(ctx, 2, srcs, NULL, &err);\n'
            '  return 0;\n}\n')
    write(tmp_path, {"host.c": host, "common.cl": COMMON, "other.cl": OTHER, "main.cl": MAIN})
    assert _main_rows(tmp_path) == [("main.cl", "CL007", 1)]


def test_sources_built_apart_are_not_joined_tune(tmp_path: Path) -> None:
    host = ('int main(void) {\n  char *a = load_source("common.cl");\n  char *b = load_source("main.cl");\n'
            '  cl_program p = clCreateProgramWithSource(ctx, 1, (const char **)&a, NULL, &err);\n'
            '  cl_program q = clCreateProgramWithSource(ctx, 1, (const char **)&b, NULL, &err);\n  return 0;\n}\n')
    write(tmp_path, {"host.c": host, "common.cl": COMMON, "other.cl": OTHER, "main.cl": MAIN})
    assert ("main.cl", "CL007", 1) not in _main_rows(tmp_path)


def test_numbers_added_are_no_sources_tune(tmp_path: Path) -> None:
    # `a + b` of two variables that hold no source names nothing
    host = ('int main(void) {\n  int a = 3;\n  int b = count("main.cl");\n  int c = a + b;\n  return c;\n}\n')
    write(tmp_path, {"host.c": host, "common.cl": COMMON, "other.cl": OTHER, "main.cl": MAIN})
    assert ("main.cl", "CL007", 1) not in _main_rows(tmp_path)


# -- held out ------------------------------------------------------------------------------


def test_java_files_api_and_an_array_variable_held_out(tmp_path: Path) -> None:
    host = ('import java.nio.file.*;\nclass H {\n  void run() throws Exception {\n'
            '    String a = new String(Files.readAllBytes(Paths.get("k/common.cl")));\n'
            '    String b = new String(Files.readAllBytes(Paths.get("k/main.cl")));\n'
            '    String[] srcs = { a, b };\n'
            '    cl_program p = clCreateProgramWithSource(ctx, srcs.length, srcs, null, null);\n  }\n}\n')
    write(tmp_path, {"H.java": host, "k/common.cl": COMMON, "k/other.cl": OTHER, "k/main.cl": MAIN})
    assert _main_rows(tmp_path) == [("main.cl", "CL007", 1)]


def test_a_python_host_adds_read_sources_held_out(tmp_path: Path) -> None:
    host = ('import pyopencl as cl\n\ncommon = open("common.cl").read()\nmain = open("main.cl").read()\n'
            'prg = cl.Program(ctx, common + main).build()\n')
    write(tmp_path, {"run.py": host, "common.cl": COMMON, "other.cl": OTHER, "main.cl": MAIN})
    assert _main_rows(tmp_path) == [("main.cl", "CL007", 1)]
