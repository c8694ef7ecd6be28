"""The includer heads (`preprocessor/includer_heads.py`: an includer's text before its
`#include` of another source) are imported where a source of the run `#include`s another
source, not for every workspace (issue 32, session 19: one module less at a one-line kernel's
start-up). Cases written before the code; the last (held out) was run once it was done."""

from __future__ import annotations

import json
from pathlib import Path

from check_in_process import check_with_modules

HEADS = "cllint.analysis.preprocessor.includer_heads"
KERNEL = b"__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def _check(tmp_path: Path, *args: str) -> tuple[list[dict], set[str]]:
    shown, modules = check_with_modules(tmp_path, "--format", "json", *args)
    return json.loads(shown), modules


def test_a_lone_kernel_reads_no_includer_heads(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "k.cl").write_bytes(KERNEL)
    found, modules = _check(tmp_path, str(folder / "k.cl"))
    assert found == []
    assert HEADS not in modules


def test_sources_that_include_no_other_source_read_no_includer_heads(tmp_path: Path) -> None:
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "a.cl").write_bytes(b'#include "missing_header.h"\n' + KERNEL)
    (folder / "b.cl").write_bytes(KERNEL.replace(b"void k(", b"void k2("))
    found, modules = _check(tmp_path, str(folder))
    assert HEADS not in modules
    assert [d["code"] for d in found] == ["CL002"]  # the missing header, nothing else


def test_a_source_included_by_another_reads_its_includers_head(tmp_path: Path) -> None:
    # held out: the fragment's name comes from the includer's text before the `#include`
    folder = tmp_path / "w"
    folder.mkdir()
    (folder / "a.cl").write_bytes(b'#define SCALE 2.0f\n#include "b.cl"\n'
                                  b"__kernel void k(__global float *x) { x[0] = f(x[0]); }\n")
    (folder / "b.cl").write_bytes(b"float f(float v) { return v * SCALE; }\n")
    found, modules = _check(tmp_path, str(folder))
    assert HEADS in modules
    assert not [d for d in found if "SCALE" in d["message"]], found
