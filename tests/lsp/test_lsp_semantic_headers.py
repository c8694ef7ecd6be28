"""The name checks through a real stdio server in a file whose headers the server's include
resolution reads from disk: names the header declares are quiet, a typo of one is reported
with the header's name suggested, and a missing header keeps the file silent."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from pathlib import Path

import pytest

from conftest import open_doc, published

pytestmark = pytest.mark.slow

HEADER = "#define TILE 16\nfloat scale_value(float x, float s) { return x * s; }\n"
KERNEL = ('#include "{inc}"\n'
          "kernel void k(global float *a) {{\n"
          "    int gid = get_global_id(0);\n"
          "    a[gid] = scale_vlaue(a[gid], TILE) + scale_value(a[gid], 2.0f, 1.0f);\n"
          "}}\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_header_names_checked_through_the_server(client):
    folder = Path(tempfile.mkdtemp(prefix="cllint-lsp-headers-"))
    try:
        (folder / "helpers.h").write_text(HEADER)
        uri = (folder / "k.cl").as_uri()
        waiter = asyncio.ensure_future(published(client, 1, uri))
        open_doc(client, KERNEL.format(inc="helpers.h"), uri)
        diags = (await waiter).diagnostics
        got = sorted((d.code, d.range.start.line, d.range.start.character, d.message) for d in diags)
        assert got == [
            ("CL011", 3, 13, "call to undeclared function 'scale_vlaue'; did you mean 'scale_value'?"),
            ("CL013", 3, 41, "too many arguments to function call 'scale_value', expected 2, have 3"),
        ]
        missing = (folder / "m.cl").as_uri()
        waiter = asyncio.ensure_future(published(client, 1, missing))
        open_doc(client, KERNEL.format(inc="absent.h"), missing)
        assert [d.code for d in (await waiter).diagnostics] == ["CL002"]  # the missing include only
    finally:
        shutil.rmtree(folder, ignore_errors=True)
