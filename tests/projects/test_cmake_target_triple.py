"""The target a CMake build compiles OpenCL sources for (`-target amdgcn-amd-amdhsa`,
`--target=spir64`): its features, as clang-19 defines them for that triple, are the program's
(issue 29: ROCm's device library is built for amdgcn, which has doubles, sub-groups and every
OpenCL C 2.0 feature, so unguarded uses are no portability warning, CL301). A triple cllint
has no table for leaves the file in portability mode.

Cases in HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_includer_prelude import check, write

DOUBLE = "kernel void k(global double *o) { o[0] = o[1] * 2.0; }\n"
SUBGROUP = "kernel void k(global uint *o) { o[get_global_id(0)] = get_sub_group_id(); }\n"


def _cmake(flags: str) -> str:
    return ("add_custom_command(OUTPUT k.bc\n"
            f"  COMMAND clang -x cl {flags} -emit-llvm -c ${{CMAKE_CURRENT_SOURCE_DIR}}/k.cl -o k.bc)\n")


def _warnings(root: Path) -> list[str]:
    return sorted(d["code"] for d in check(".", cwd=root) if d["code"] == "CL301")


def test_amdgcn_has_doubles(tmp_path: Path) -> None:
    files = {"CMakeLists.txt": _cmake("-Xclang -cl-std=CL2.0 -target amdgcn-amd-amdhsa"), "k.cl": DOUBLE}
    assert _warnings(write(tmp_path, files)) == []


def test_an_unknown_triple_stays_portable(tmp_path: Path) -> None:
    files = {"CMakeLists.txt": _cmake("-cl-std=CL2.0 -target nvptx64-nvidia-cuda"), "k.cl": DOUBLE}
    assert _warnings(write(tmp_path, files)) != []


def test_no_triple_stays_portable(tmp_path: Path) -> None:
    files = {"CMakeLists.txt": _cmake("-cl-std=CL2.0"), "k.cl": DOUBLE}
    assert _warnings(write(tmp_path, files)) != []


HELD_OUT = pytest.mark.parametrize("flags, kernel", [
    ("-cl-std=CL3.0 --target=amdgcn-amd-amdhsa", SUBGROUP),
    ("-cl-std=CL2.0 -target amdgcn-amd-amdhsa -mcpu=gfx900", DOUBLE),
])


@HELD_OUT
def test_held_out(flags: str, kernel: str, tmp_path: Path) -> None:
    assert _warnings(write(tmp_path, {"CMakeLists.txt": _cmake(flags), "k.cl": kernel})) == []
