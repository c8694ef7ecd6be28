"""Loads and stores of a scalar `half` through a pointer (gating/half_access.py) are found
in the lint's one query over the tree (`KindIndex`) when it has one, not by reading every
named node of the tree in Python (~40M instructions on opencv's conv_layer_spatial.cl,
issue 32). Lines labelled by clang-19 with `-cl-ext=-cl_khr_fp16` ("loading directly from
pointer to type 'half' requires cl_khr_fp16"); TUNE were run while writing the change,
HELD_OUT only once it was done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cllint.analysis.model.walk as walk
from cllint.cli.main import main

TUNE = {  # source -> lines clang-19 reports without cl_khr_fp16
    "load": ("__kernel void k(__global half *a, __global float *o) {\n  o[0] = a[0];\n}\n", [2]),
    "store_through_star": ("__kernel void k(__global half *a) {\n  *a = 0;\n}\n", [2]),
    "vload_half_and_a_struct": ("struct S { int n; };\n"
                                "__kernel void k(__global half *a, __global float *o, __global struct S *s) {\n"
                                "  o[s->n] = vload_half(0, a);\n}\n", []),
}
HELD_OUT = {
    "copy": ("__kernel void k(__global half *a, __global half *b) {\n  int i = get_global_id(0);\n"
             "  b[i] = a[i];\n}\n", [3]),
    "sizeof_is_no_access": ("__kernel void k(__global half *a, __global float *o) {\n  o[0] = sizeof(a[0]);\n}\n", []),
}


def _half_lines(tmp_path: Path, source: str, capsys) -> list[int]:
    path = tmp_path / "k.cl"
    path.write_text(source)
    main(["check", "--no-cache", "--exit-zero", "--format", "json", str(path)])
    found = json.loads(capsys.readouterr().out)
    return sorted({d["line"] for d in found if d["code"] == "CL301" and "cl_khr_fp16" in d["message"]})


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune_half_accesses_where_clang_says(tmp_path: Path, capsys, name: str) -> None:
    source, lines = TUNE[name]
    assert _half_lines(tmp_path, source, capsys) == lines


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_half_accesses_where_clang_says(tmp_path: Path, capsys, name: str) -> None:
    source, lines = HELD_OUT[name]
    assert _half_lines(tmp_path, source, capsys) == lines


def test_the_tree_is_not_read_whole_for_them(tmp_path: Path, capsys, monkeypatch) -> None:
    read: list[str] = []
    named = walk._named
    monkeypatch.setattr(walk, "_named", lambda root: read.append(root.type) or named(root))
    source, lines = TUNE["load"]
    source += "".join(f"__kernel void k{i}(__global int *a) {{ a[{i}] = {i}; }}\n" for i in range(20))
    assert _half_lines(tmp_path, source, capsys) == lines
    assert "translation_unit" not in read
