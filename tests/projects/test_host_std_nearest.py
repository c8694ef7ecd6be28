"""A host's `-cl-std` for a source whose name other folders share (issue 29): benchmark suites
keep one `kernel.cl` and one host per folder (Chai's `OpenCL-U/*/kernel.cl`, each host opening
`"kernel.cl"` and building it with `-cl-std=CL2.0`). The name a host opens is the source of
that name nearest the host (fewest folders up, then down); where two are equally near, none.

Cases written before the code, each a workspace checked as a user runs `cllint check .`; the
held-out third (crc32 of the name % 3 == 0) was not run while the code was written. A
program-scope `global` variable is the witness: clang-19 rejects it at CL1.2 (CL110) and accepts
it at CL2.0, so a source judged at the host's 2.0 is silent."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))  # (tests/inline_cases.py)
from inline_cases import case_id, clang_check  # noqa: E402
from labelled_workspaces import CLANG, check_json, write_workspace

KERNEL = "global int counter = 0;\nkernel void k(global int *p) { p[get_global_id(0)] = counter; }\n"
C_HOST = """#include <CL/cl.h>
#include <stdio.h>
void build(cl_context ctx, cl_device_id dev) {
    FILE *f = fopen("kernel.cl", "r");
    char src[4096]; size_t n = fread(src, 1, sizeof src, f);
    const char *s = src;
    cl_program p = clCreateProgramWithSource(ctx, 1, &s, &n, NULL);
    clBuildProgram(p, 1, &dev, "%s", NULL, NULL);
}
"""
PY_HOST = """import pyopencl as cl

def build(ctx):
    src = open("kernel.cl").read()
    return cl.Program(ctx, src).build(options=["-cl-std=CL2.0"])
"""
SPRINTF_HOST = """#include <CL/cl.h>
#include <stdio.h>
void build(cl_context ctx, cl_device_id dev, const char **s) {
    FILE *f = fopen("kernel.cl", "r");
    cl_program p = clCreateProgramWithSource(ctx, 1, s, NULL, NULL);
    char options[50];
#ifdef OCL_2_0
    sprintf(options, "-I. -cl-std=CL2.0");
#else
    sprintf(options, "-I.");
#endif
    clBuildProgram(p, 0, NULL, options, NULL, NULL);
}
"""

# case -> (files, the (path, code, line) reports wanted)
CASES: dict[str, tuple[dict[str, str], list[tuple[str, str, int]]]] = {
    "suite_each_folder_its_kernel": ({
        "bench/bfs/kernel.cl": KERNEL, "bench/bfs/support/ocl.h": C_HOST % "-cl-std=CL2.0",
        "bench/sssp/kernel.cl": KERNEL, "bench/sssp/support/ocl.h": C_HOST % "-cl-std=CL2.0",
    }, []),
    "folders_differ_in_version": ({
        "a/kernel.cl": KERNEL, "a/host.c": C_HOST % "-cl-std=CL2.0",
        "b/kernel.cl": KERNEL, "b/host.c": C_HOST % "-DB=1",
    }, [("b/kernel.cl", "CL110", 1)]),
    "tie_left_alone": ({
        "host.c": C_HOST % "-cl-std=CL2.0", "a/kernel.cl": KERNEL, "b/kernel.cl": KERNEL,
    }, [("a/kernel.cl", "CL110", 1), ("b/kernel.cl", "CL110", 1)]),
    "sprintf_alternatives": ({
        "x/kernel.cl": KERNEL, "x/support/ocl.h": SPRINTF_HOST,
        "y/kernel.cl": KERNEL, "y/support/ocl.h": SPRINTF_HOST,
    }, []),
    "nearest_below_the_host": ({
        "app/main.c": C_HOST % "-cl-std=CL2.0", "app/kernels/kernel.cl": KERNEL, "other/kernel.cl": KERNEL,
    }, [("other/kernel.cl", "CL110", 1)]),
    "python_hosts_each_folder": ({
        "one/run.py": PY_HOST, "one/kernel.cl": KERNEL, "two/run.py": PY_HOST, "two/kernel.cl": KERNEL,
    }, []),
}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_the_nearest_source_is_built_at_its_hosts_version(name: str, tmp_path: Path) -> None:
    files, wanted = CASES[name]
    write_workspace(tmp_path, files)
    got = sorted((r["path"], r["code"], r["line"]) for r in check_json(tmp_path) if r["severity"] != "info")
    assert got == sorted(wanted)


@pytest.mark.skipif(CLANG is None, reason="clang-19 is the oracle")
@pytest.mark.parametrize("std, rejected", [("CL1.2", True), ("CL2.0", False)])
def test_the_witness_is_clangs(std: str, rejected: bool, tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(KERNEL)
    done = clang_check(tmp_path / "k.cl", f"-cl-std={std}")  # (the last -cl-std wins)
    assert (done.returncode != 0) == rejected, done.stderr
