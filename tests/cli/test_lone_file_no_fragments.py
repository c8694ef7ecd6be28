"""A file alone in its folder has no siblings to be a fragment of (workspace.py's inference
needs two files): `cllint check` on it does not import the inference (issue 32, session 18:
each module costs start-up to load). Beside a sibling that defines what it uses, the inference
still reads it first. The last case (held out) was written with the rest before the code and
run once it was done."""

from __future__ import annotations

import json
from pathlib import Path

from check_in_process import check_with_modules

KERNEL = b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def test_a_lone_file_imports_no_fragment_inference(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL)
    shown, modules = check_with_modules(tmp_path, "--format", "json", str(folder / "k.cl"))
    assert json.loads(shown) == []
    assert "cllint.project.workspace" not in modules


def test_a_fragment_beside_its_definitions_is_read_after_them(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "common.cl").write_text("#define SCALE_FACTOR 2.0f\nfloat scale_value(float x) { return x * SCALE_FACTOR; }\n")
    (folder / "k.cl").write_text("__kernel void k(__global float *a) { a[get_global_id(0)] = scale_value(SCALE_FACTOR); }\n")
    shown, modules = check_with_modules(tmp_path, "--format", "json", str(folder / "k.cl"))
    assert [d["code"] for d in json.loads(shown)] == ["CL007"]  # read after common.cl: its note
    assert "cllint.project.workspace" in modules


# -- held out ---------------------------------------------------------------------------


def test_heldout_a_lone_file_with_an_unknown_name_reports_it(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL.replace(b"1.0f", b"unknown_value"))
    shown, modules = check_with_modules(tmp_path, "--format", "json", str(folder / "k.cl"))
    assert [d["code"] for d in json.loads(shown)] == ["CL010"]
    assert "cllint.project.workspace" not in modules
