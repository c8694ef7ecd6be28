"""A workspace without host files reads nothing host code holds, continued (issue 32, session
18): the host readers' module (hosts.py, but for the names that say what a host file is), the
JIT-name families, CMake's build options and the host header names are neither imported nor
called, and the project model takes each one's answer for no hosts. Those answers are the
readers' own on empty input (held here); what a workspace's file names alone say (a header
generated from `config.h.in`) is still read; a workspace with host files still reads them.
The last two cases (held out) were written with the rest before the code, and run once it was
done."""

from __future__ import annotations

import json
from pathlib import Path

from check_in_process import check_with_modules

from cllint.project.cmake_options import cmake_build_options
from cllint.project.host_headers import external_include_dirs, host_header_names, strips_includes
from cllint.project.hosts import checked_extensions, computed_option_hosts, host_programs, kernels_named, macros_in
from cllint.project.jit_names import host_name_families
from cllint.project.supplied_headers import included_of

HOST_ONLY = ["cllint.project.hosts", "cllint.project.jit_names", "cllint.project.helper_args",
             "cllint.project.cmake_options", "cllint.project.host_headers"]

KERNEL = b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def test_the_readers_answer_empty_input_with_nothing(tmp_path: Path) -> None:
    source = tmp_path / "k.cl"
    assert checked_extensions({}) == frozenset()
    assert computed_option_hosts({}) == []
    assert kernels_named({}, [], {"k", "kernel"}) == set()
    assert host_programs({}, {"k", "kernel"}) == []
    assert macros_in([]) == frozenset()
    families = host_name_families([])
    assert families.literals == frozenset() and families.words_in(KERNEL) == ()
    assert cmake_build_options({}, {source}) == {}
    assert host_header_names({}) == frozenset()
    assert external_include_dirs({}, [tmp_path]) is False
    assert strips_includes({}) is False
    assert included_of((), b'#include "config.h"\n') == ()


def _check(tmp_path: Path, *args: str) -> tuple[list[dict], set[str]]:
    shown, modules = check_with_modules(tmp_path, "--format", "json", *args)
    return json.loads(shown), modules


def test_a_file_named_alone_imports_no_host_reader(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL)
    found, modules = _check(tmp_path, str(folder / "k.cl"))
    assert found == []
    assert modules.isdisjoint(HOST_ONLY), sorted(modules & set(HOST_ONLY))


def test_a_header_generated_from_a_template_is_known_without_hosts(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(b'#include "config.h"\n' + KERNEL)
    found, _ = _check(tmp_path, str(folder))
    assert [d["code"] for d in found] == ["CL002"]  # clang-19: 'config.h' file not found
    (folder / "config.h.in").write_text("#define SCALE @SCALE@\n")
    found, modules = _check(tmp_path, str(folder))
    assert found == []  # the build generates it
    assert modules.isdisjoint(HOST_ONLY), sorted(modules & set(HOST_ONLY))


def test_a_folder_with_a_cmake_build_reads_it(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL.replace(b"1.0f", b"SCALE"))
    (folder / "CMakeLists.txt").write_text('add_definitions("-DSCALE=2.0f")\nadd_executable(app main.c)\n')
    found, modules = _check(tmp_path, str(folder))
    assert found == []  # the build defines it
    assert "cllint.project.hosts" in modules


# -- held out ---------------------------------------------------------------------------


def test_heldout_a_host_supplied_header_is_still_known(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(b'#include "params.h"\n' + KERNEL)
    found, _ = _check(tmp_path, str(folder))
    assert [d["code"] for d in found] == ["CL002"]
    (folder / "host.py").write_text('import pyopencl as cl\nprg = cl.Program(ctx, src).build(options=[])\n'
                                    'src = open("k.cl").read()\nprg = cl.Program(ctx, src).compile(headers=[("params.h", "#define N 4")])\n')
    found, _ = _check(tmp_path, str(folder))
    assert found == []  # the host supplies it


def test_heldout_two_kernels_alone_report_as_before(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "a.cl").write_bytes(KERNEL)
    (folder / "b.cl").write_bytes(b"__kernel void b(__global int *o) { o[0] = (int)get_local_id(0); }\n")
    found, modules = _check(tmp_path, str(folder))
    assert [(Path(d["path"]).name, d["code"]) for d in found] == [("b.cl", "CL211")]
    assert modules.isdisjoint(HOST_ONLY), sorted(modules & set(HOST_ONLY))
