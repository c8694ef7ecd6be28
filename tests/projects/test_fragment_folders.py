"""Fragments whose names two sources of the workspace define, one beside the file (issue 29,
2c): a program's sources lie in one kernel folder (gpuowl's src/cl, with a stand-alone SP/sp.cl
elsewhere that defines the same helpers), so the source in the file's own folder is the one the
host joins. Written before the change; the held-out third was run once the code was done."""

from __future__ import annotations

import json
from pathlib import Path

from test_project_model import check, rows, write

LIB = "float2 twist(float2 a) { return (float2)(-a.y, a.x); }\n"
USER = "__kernel void k(__global float2 *a) { a[0] = twist(a[1]); }\n"


def _note(root: Path, name: str) -> str:
    (row,) = [r for r in json.loads(check(".", cwd=root).stdout) if Path(r["path"]).name == name]
    return row["message"]


# -- tune ----------------------------------------------------------------------------------


def test_the_source_beside_the_file_is_its_program_tune(tmp_path: Path) -> None:
    write(tmp_path, {"src/math.cl": LIB, "src/user.cl": USER, "other/standalone.cl": LIB +
                     "__kernel void s(__global float2 *a) { size_t i = get_global_id(0); a[i] = twist(a[i]); }\n"})
    assert rows(check(".", cwd=tmp_path)) == [("user.cl", "CL007", 1)]
    assert "from math.cl ('twist')" in _note(tmp_path, "user.cl")


def test_two_sources_beside_the_file_leave_it_alone_tune(tmp_path: Path) -> None:
    write(tmp_path, {"src/math.cl": LIB, "src/math2.cl": LIB, "src/user.cl": USER})
    assert ("user.cl", "CL007", 1) not in rows(check(".", cwd=tmp_path))


def test_no_source_beside_the_file_leaves_it_alone_tune(tmp_path: Path) -> None:
    write(tmp_path, {"a/math.cl": LIB, "b/math.cl": LIB, "c/user.cl": USER})
    assert ("user.cl", "CL007", 1) not in rows(check(".", cwd=tmp_path))


def test_an_alternative_beside_the_file_is_no_program_tune(tmp_path: Path) -> None:
    # the source beside it defines the file's own kernel too: an alternative build, not a part
    write(tmp_path, {"src/alt.cl": LIB + "__kernel void k(__global float2 *a) { a[0] = 0; }\n",
                     "src/user.cl": USER, "far/math.cl": LIB})
    assert ("user.cl", "CL007", 1) not in rows(check(".", cwd=tmp_path))


# -- held out ------------------------------------------------------------------------------


def test_a_macro_beside_the_file_held_out(tmp_path: Path) -> None:
    write(tmp_path, {"src/defs.cl": "#define SCALE 3\n", "tools/defs.cl": "#define SCALE 4\n",
                     "src/k.cl": "__kernel void k(__global int *a) { a[0] = SCALE * a[1]; }\n"})
    assert rows(check(".", cwd=tmp_path)) == [("k.cl", "CL007", 1)]


def test_the_nearer_of_nested_folders_held_out(tmp_path: Path) -> None:
    write(tmp_path, {"src/cl/math.cl": LIB, "src/math.cl": LIB, "src/cl/user.cl": USER})
    assert rows(check(".", cwd=tmp_path)) == [("user.cl", "CL007", 1)]
    assert "from math.cl ('twist')" in _note(tmp_path, "user.cl")
