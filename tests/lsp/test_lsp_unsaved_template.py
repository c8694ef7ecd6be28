"""An editor buffer on no disk (a new, unsaved file) is read for its program as `cllint check`
reads the file alone in its folder: a template whose host supplies its types (CL007's note,
cllint/project/host_templates.py) is one in the editor too, at the version typed (issue 33;
found by the fuzzed edits of tests/lsp/test_lsp_fuzz.py, whose seed 1002 typed such a text)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import change, open_doc, pull

pytestmark = pytest.mark.slow
URI = "file:///tmp/cllint-lsp-unsaved-template/t.cl"
PLAIN = "kernel void k(global int *out) { out[0] = 1; }\n"
# `task_t` stands where a parameter's type must: a type its host prepends (no file defines it)
TEMPLATE = ("kernel void k(global const task_t *tasks, global int *out) {\n"
            "    out[0] = tasks[0].n * WG;\n}\n")


def _cli(tmp: Path, text: str) -> set:
    path = tmp / "t.cl"
    path.write_text(text)
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", str(path)],
                       capture_output=True, text=True, timeout=120)
    return {(d["line"], d["code"], d["message"]) for d in json.loads(r.stdout)}


async def _editor(client, version: int) -> set:
    for _ in range(50):
        report = await pull(client, URI)
        if report.result_id == f"{URI}@{version}":
            return {(d.range.start.line + 1, d.code, d.message) for d in report.items}
    raise AssertionError("never settled")


@pytest.mark.asyncio(loop_scope="module")
async def test_a_template_typed_into_an_unsaved_buffer(client, tmp_path):
    assert not Path("/tmp/cllint-lsp-unsaved-template/t.cl").exists()
    open_doc(client, PLAIN, URI)
    assert await _editor(client, 1) == _cli(tmp_path, PLAIN) == set()
    change(client, 2, (0, 0), (1, 0), TEMPLATE, URI)  # the whole text becomes the template
    got = await _editor(client, 2)
    assert got == _cli(tmp_path, TEMPLATE)
    assert "CL007" in {c for _, c, _ in got}  # the note, and `task_t` no undeclared type
    assert not any("task_t" in m for _, c, m in got if c != "CL007")
    change(client, 3, (0, 0), (3, 0), PLAIN, URI)  # and back: no note
    assert await _editor(client, 3) == set()
