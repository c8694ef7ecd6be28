"""Sources a CMake build compiles through its own function, named by a `file(GLOB ...)` list
(issue 29: ROCm's device library sets `CLANG_OCL_FLAGS ... -cl-std=CL2.0` and compiles each
`${file}` of `opencl_bc_lib(NAME ockl SOURCES ${sources})`, `sources` being `file(GLOB sources
${CMAKE_CURRENT_SOURCE_DIR}/src/*.cl)`): those sources are read at the command's `-cl-std`, so
a program-scope variable (OpenCL C 2.0) is no error.

Cases in HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_includer_prelude import check, write

KERNEL = "global int counter = 0;\nkernel void k(global int *o) { o[0] = counter; }\n"
MACRO = ("set(OCL_FLAGS -x cl -Xclang -cl-std=CL2.0 -target amdgcn-amd-amdhsa)\n"
         "macro(device_lib)\n"
         "  cmake_parse_arguments(LIB \"\" \"NAME\" \"SOURCES\" ${ARGN})\n"
         "  foreach(file ${LIB_SOURCES})\n"
         "    add_custom_command(OUTPUT \"${file}.bc\"\n"
         "      COMMAND clang ${OCL_FLAGS} -emit-llvm -c \"${file}\" -o \"${file}.bc\")\n"
         "  endforeach()\n"
         "endmacro()\n")


def _errors(root: Path, name: str = "k.cl") -> list[str]:
    return sorted(d["code"] for d in check(".", cwd=root) if Path(d["path"]).name == name and d["severity"] == "error")


def test_globbed_sources_are_built_at_the_flags_version(tmp_path: Path) -> None:
    files = {"CMakeLists.txt": "include(cmake/Lib.cmake)\nadd_subdirectory(lib)\n", "cmake/Lib.cmake": MACRO,
             "lib/CMakeLists.txt": "file(GLOB sources ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cl)\n"
                                   "device_lib(NAME lib SOURCES ${sources})\n",
             "lib/src/k.cl": KERNEL}
    assert _errors(write(tmp_path, files)) == []


def test_a_glob_that_matches_no_opencl_source_builds_nothing(tmp_path: Path) -> None:
    files = {"CMakeLists.txt": "include(cmake/Lib.cmake)\nadd_subdirectory(lib)\n", "cmake/Lib.cmake": MACRO,
             "lib/CMakeLists.txt": "file(GLOB sources ${CMAKE_CURRENT_SOURCE_DIR}/src/*.ll)\n"
                                   "device_lib(NAME lib SOURCES ${sources})\n",
             "lib/src/k.cl": KERNEL}
    assert _errors(write(tmp_path, files)) != []


def test_flags_set_again_from_themselves(tmp_path: Path) -> None:
    # (added after the held-out run, from ROCm's `set(CLANG_OCL_FLAGS ${CLANG_OCL_FLAGS} -Xclang ...)`)
    files = {"CMakeLists.txt": "include(cmake/Lib.cmake)\nadd_subdirectory(lib)\n",
             "cmake/Lib.cmake": MACRO.replace("macro(device_lib)", "set(OCL_FLAGS ${OCL_FLAGS} -O2)\nmacro(device_lib)"),
             "lib/CMakeLists.txt": "file(GLOB sources ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cl)\n"
                                   "device_lib(NAME lib SOURCES ${sources})\n",
             "lib/src/k.cl": KERNEL}
    assert _errors(write(tmp_path, files)) == []


HELD_OUT = pytest.mark.parametrize("lib", [
    # two patterns, the OpenCL one second, and CONFIGURE_DEPENDS
    "file(GLOB srcs CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/src/*.ll ${CMAKE_CURRENT_SOURCE_DIR}/src/*.cl)\n"
    "device_lib(NAME lib SOURCES ${srcs})\n",
    # the list is passed alongside other keywords
    "file(GLOB all_cl ${CMAKE_CURRENT_SOURCE_DIR}/src/k*.cl)\n"
    "device_lib(NAME lib SOURCES ${all_cl} EXTRA none)\n",
])


@HELD_OUT
def test_held_out(lib: str, tmp_path: Path) -> None:
    files = {"CMakeLists.txt": "include(cmake/Lib.cmake)\nadd_subdirectory(lib)\n", "cmake/Lib.cmake": MACRO,
             "lib/CMakeLists.txt": lib, "lib/src/k.cl": KERNEL}
    assert _errors(write(tmp_path, files)) == []
