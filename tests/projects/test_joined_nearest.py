"""A host's joined program where its sources' names recur in other folders (issue 29): a suite
keeps `common.cl` and `kernel.cl` in each folder, each folder's host joining its own pair
(`read("common.cl") + read("kernel.cl")`). The names a host joins are the sources of those
names nearest the host (host_std.nearest: fewest folders up, then down); two equally near,
no program (as before: a fragment's names are then found only where one file defines them).

Cases written before the code; held out by crc32(name) % 3 == 0, run once after. The witness:
`kernel.cl` calls `twice`, defined in `common.cl`: alone it is CL011 (clang-19: undeclared
function), joined after its `common.cl` it is clean."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent))  # (tests/inline_cases.py)
from inline_cases import case_id  # noqa: E402
from labelled_workspaces import check_json, write_workspace

COMMON = "float twice(float x) { return 2.0f * x; }\n"
KERNEL = "kernel void k(global float *p) { p[get_global_id(0)] = twice(p[get_global_id(0)]); }\n"
C_HOST = """#include <string>
std::string read(const char *name);
std::string program_source() {
    std::string src = read("common.cl") + read("kernel.cl");
    return src;
}
"""
PY_HOST = """import pyopencl as cl

def build(ctx):
    src = open("common.cl").read() + open("kernel.cl").read()
    return cl.Program(ctx, src).build()
"""

# case -> (files, the (path, code, line) error reports wanted)
CASES: dict[str, tuple[dict[str, str], list[tuple[str, str, int]]]] = {
    "suite_joins_common_per_folder": ({
        "bench/a/common.cl": COMMON, "bench/a/kernel.cl": KERNEL, "bench/a/host.cpp": C_HOST,
        "bench/b/common.cl": COMMON, "bench/b/kernel.cl": KERNEL, "bench/b/host.cpp": C_HOST,
    }, []),
    "python_joins_per_folder": ({
        "one/common.cl": COMMON, "one/kernel.cl": KERNEL, "one/run.py": PY_HOST,
        "two/common.cl": COMMON, "two/kernel.cl": KERNEL, "two/run.py": PY_HOST,
    }, []),
    "join_tie_at_root": ({
        "host.cpp": C_HOST, "a/common.cl": COMMON, "a/kernel.cl": KERNEL, "b/common.cl": COMMON,
        "b/kernel.cl": KERNEL,
    }, [("a/kernel.cl", "CL011", 1), ("b/kernel.cl", "CL011", 1)]),
    "join_nearest_below": ({
        "app/host.cpp": C_HOST, "app/cl/common.cl": COMMON, "app/cl/kernel.cl": KERNEL,
        "old/common.cl": COMMON, "old/kernel.cl": KERNEL,
    }, [("old/kernel.cl", "CL011", 1)]),
    "join_one_folder_only": ({
        "x/common.cl": COMMON, "x/kernel.cl": KERNEL, "x/host.cpp": C_HOST,
        "y/common.cl": COMMON, "y/kernel.cl": KERNEL,
    }, [("y/kernel.cl", "CL011", 1)]),
}


@pytest.mark.parametrize("name", sorted(CASES), ids=case_id)
def test_a_hosts_join_reads_the_nearest_sources(name: str, tmp_path: Path) -> None:
    files, wanted = CASES[name]
    write_workspace(tmp_path, files)
    got = sorted((r["path"], r["code"], r["line"]) for r in check_json(tmp_path) if r["severity"] == "error")
    assert got == sorted(wanted)
