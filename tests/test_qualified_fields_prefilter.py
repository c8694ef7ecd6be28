"""CL106 (a struct or union field qualified with an address space) reads the whole file's
`field_declaration` nodes, which read every named node of the tree in Python (~50M
instructions on a 1,500-line kernel, issue 32). A tree without errors has such a node only
under a `struct` or `union` keyword written in the text, so a file with neither word is not
read. Labels from clang-19 (`error: field may not be qualified with an address space`);
TUNE were run while writing the filter, HELD_OUT only once it was done."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import cllint.analysis.model.walk as walk
from cllint.cli.main import main

TUNE = {  # source -> lines of CL106
    "struct_global_field": ("struct S { global int x; };\n__kernel void k(__global int *a) { a[0] = 1; }\n", [1]),
    "union_local_field": ("typedef union { local float f; int i; } U;\n"
                          "__kernel void k(__global int *a) { a[0] = 2; }\n", [1]),
    "pointer_field_is_fine": ("struct P { __global int *p; int n; };\n"
                              "__kernel void k(__global int *a) { struct P q; q.n = 1; a[0] = q.n; }\n", []),
    "no_struct": ("__kernel void k(__global float *a, __local float *t) { t[0] = a[0]; "
                  "barrier(CLK_LOCAL_MEM_FENCE); a[1] = t[0]; }\n", []),
}
HELD_OUT = {
    "typedef_carries_space": ("typedef __constant int cint;\nstruct Q { cint c; };\n"
                              "__kernel void k(__global int *a) { a[0] = 3; }\n", [2]),
    "local_struct_in_body": ("__kernel void k(__global int *a) {\n  struct L { __private int v; } l;\n"
                             "  l.v = 1; a[0] = l.v;\n}\n", [2]),
}


def _cl106(tmp_path: Path, source: str, capsys) -> list[int]:
    path = tmp_path / "k.cl"
    path.write_text(source)
    main(["check", "--no-cache", "--exit-zero", "--format", "json", str(path)])
    return [d["line"] for d in json.loads(capsys.readouterr().out) if d["code"] == "CL106"]


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune_cl106_as_clang_says(tmp_path: Path, capsys, name: str) -> None:
    source, lines = TUNE[name]
    assert _cl106(tmp_path, source, capsys) == lines


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out_cl106_as_clang_says(tmp_path: Path, capsys, name: str) -> None:
    source, lines = HELD_OUT[name]
    assert _cl106(tmp_path, source, capsys) == lines


def test_a_file_without_struct_or_union_is_not_read_whole(tmp_path: Path, capsys, monkeypatch) -> None:
    read: list[str] = []
    named = walk._named
    monkeypatch.setattr(walk, "_named", lambda root: read.append(root.type) or named(root))
    assert _cl106(tmp_path, TUNE["no_struct"][0], capsys) == []
    assert "translation_unit" not in read


def test_a_broken_file_is_still_read(tmp_path: Path, capsys, monkeypatch) -> None:
    read: list[str] = []
    named = walk._named
    monkeypatch.setattr(walk, "_named", lambda root: read.append(root.type) or named(root))
    source = "__kernel void k(__global int *a) { a[0] = ; }\n" + "".join(f"int g{i} = {i};\n" for i in range(60))
    _cl106(tmp_path, source, capsys)
    assert "translation_unit" in read  # (errors: the whole tree is read, as before)


def test_a_file_with_structs_reads_its_fields_from_the_kind_index(tmp_path: Path, capsys, monkeypatch) -> None:
    """With a struct, the fields come from the lint's one query over the tree (`KindIndex`),
    not from every named node of the tree read in Python; the same CL106 as before."""
    read: list[str] = []
    named = walk._named
    monkeypatch.setattr(walk, "_named", lambda root: read.append(root.type) or named(root))
    source, lines = TUNE["struct_global_field"]
    source += "".join(f"__kernel void k{i}(__global int *a) {{ a[{i}] = {i}; }}\n" for i in range(20))
    assert _cl106(tmp_path, source, capsys) == lines
    assert "translation_unit" not in read
