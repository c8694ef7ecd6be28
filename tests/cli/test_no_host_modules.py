"""A workspace without host files (files named alone, as pre-commit names them; a folder of
kernels only) reads nothing host code holds: the companion sources, lists of files, launches
and `-cl-std` readers are not imported (issue 32, session 17: each module costs start-up),
and the project model takes each one's answer for no hosts. Those answers are the readers'
own on empty input (held here), and a workspace with host files still reads them."""

from __future__ import annotations

import json
from pathlib import Path

from check_in_process import check_with_modules

from cllint.project.host_std import host_stds
from cllint.project.launch_bounds import launch_bounds
from cllint.project.launches import launch_shapes
from cllint.project.listed_files import joined_by_lists, missing_by_host, workspace_lists
from cllint.project.model import _host_stds, _joined_by_lists, _launch_bounds, _launch_shapes, _missing_by_host

HOST_ONLY = ["cllint.project.companion_sources", "cllint.project.listed_files", "cllint.project.brackets",
             "cllint.project.launches", "cllint.project.confined_kernels", "cllint.project.launch_bounds",
             "cllint.project.host_std"]


KERNEL = b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def test_the_readers_answer_empty_input_as_the_model_does_without_them(tmp_path: Path) -> None:
    files = [tmp_path / "k.cl", tmp_path / "h.h", tmp_path / "notes.txt"]
    sources = {files[0]: KERNEL}
    assert workspace_lists({}, files) == []
    assert joined_by_lists([], sources) == _joined_by_lists([], sources) == {}
    assert missing_by_host([]) == _missing_by_host([]) == {}
    assert launch_shapes({}, {"k"}) == _launch_shapes({}, sources) == (frozenset(), frozenset())
    assert launch_bounds({}, {"k"}) == _launch_bounds({}, sources) == ()
    assert host_stds({}, list(sources), ["CL1.2", "CL2.0"]) == _host_stds({}, sources, ["CL1.2", "CL2.0"]) == {}


def _check(tmp_path: Path, *args: str) -> tuple[list[dict], set[str]]:
    shown, modules = check_with_modules(tmp_path, "--format", "json", *args)
    return json.loads(shown), modules


def test_a_file_named_alone_imports_no_host_reader(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL)
    (folder / "host.c").write_text('int main(void) { build("-cl-std=CL1.2"); clEnqueueNDRangeKernel(q, k, 1, 0, g, l, 0, 0, 0); }\n')
    found, modules = _check(tmp_path, str(folder / "k.cl"))
    assert found == []
    assert modules.isdisjoint(HOST_ONLY), sorted(modules & set(HOST_ONLY))


def test_a_folder_of_kernels_only_imports_no_host_reader(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(b'#include "h.clh"\n' + KERNEL.replace(b"1.0f", b"ONE"))
    (folder / "h.clh").write_text("#define ONE 1.0f\n")  # (a `.h` may be host code: read as such)
    found, modules = _check(tmp_path, str(folder))
    assert found == []
    assert modules.isdisjoint(HOST_ONLY), sorted(modules & set(HOST_ONLY))


def test_a_folder_with_host_code_reads_it(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL.replace(b"1.0f", b"SCALE"))
    found, _ = _check(tmp_path, str(folder))
    assert [d["code"] for d in found] == ["CL012"]  # 'SCALE': a macro the host would define
    (folder / "host.c").write_text('const char *opts = "-DSCALE=2.0f";\n'
                                   'void run(void) { clEnqueueNDRangeKernel(q, k, 1, 0, g, l, 0, 0, 0); }\n')
    found, modules = _check(tmp_path, str(folder))
    assert found == []  # the host defines it
    assert {"cllint.project.listed_files", "cllint.project.launches", "cllint.project.launch_bounds",
            "cllint.project.host_std"} <= modules
