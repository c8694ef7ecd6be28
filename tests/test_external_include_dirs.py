"""CL002 and installed libraries (issue 29): a host that builds with an include folder outside
the workspace (`clBuildProgram(p, 0, NULL, "-I /usr/local/include", ...)`, the clRNG examples
of opencl-examples) gets headers the workspace does not hold from it (`<clRNG/mrg31k3p.clh>`):
an include found nowhere in the workspace is that folder's business, not reported. A relative
`-I` names a folder of the workspace, and a workspace without such a host reports as before.

Cases written before the change; the heldout_ tests scored only once it was done."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

KERNEL = "#include <clRNG/mrg31k3p.clh>\n__kernel void k(__global float *o) { o[0] = 1.0f; }\n"
HOST = ('#include <CL/cl.h>\nint build(cl_program program) {\n'
        '    return clBuildProgram(program, 0, NULL, "{opts}", NULL, NULL);\n}}\n')


def _cl002(tmp_path: Path, options: str | None) -> list[tuple[str, int]]:
    (tmp_path / "kernel.cl").write_text(KERNEL)
    if options is not None:
        (tmp_path / "host.c").write_text(HOST.replace("{opts}", options).replace("}}", "}"))
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--format", "json", "--exit-zero", "--no-cache", "."],
                       cwd=tmp_path, capture_output=True, timeout=300)
    assert r.returncode == 0, r.stderr
    return [(Path(d["path"]).name, d["line"]) for d in json.loads(r.stdout) if d["code"] == "CL002"]


def test_tune_an_absolute_include_folder_outside_the_workspace(tmp_path: Path) -> None:
    assert _cl002(tmp_path, "-I /usr/local/include") == []


def test_tune_no_host_reports(tmp_path: Path) -> None:
    assert _cl002(tmp_path, None) == [("kernel.cl", 1)]


def test_heldout_a_relative_folder_is_the_workspace(tmp_path: Path) -> None:
    assert _cl002(tmp_path, "-I ./include") == [("kernel.cl", 1)]


def test_heldout_joined_option_with_defines(tmp_path: Path) -> None:
    assert _cl002(tmp_path, "-I/opt/clrng/include -DN=4") == []
