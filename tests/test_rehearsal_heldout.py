"""Held-out cases for the open's rehearsal (tests/test_rehearsal.py): written with the tune
cases, run once the code was done."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from pygls.io_ import StdoutWriter

import cllint.server.lsp as lsp
from cllint.analysis.db import Change, Host, TextEdit

# A syntax error at file scope: the skeleton does not parse, so an edit's run re-reads it too.
BROKEN_SKELETON = """int g_table[4] = ;
float scale(float x) { return x * 2.0f; }
__kernel void k(__global float *o) {
    int i = get_global_id(0);
    o[i] = scale(o[i]);
}
"""
ONE = "__kernel void only(__global int *o) { o[get_global_id(0)] = 1; }\n"
DECLARATIONS = "float scale(float x);\n__constant int N = 4;\n"


def _after_rehearsal(source: str, at: int, typed: bytes) -> tuple[list, list]:
    host = Host()
    host.set_file("f.cl", source.encode())
    snap = host.snapshot()
    snap.diagnostics("f.cl")
    host.rehearse("f.cl")
    host.apply_change(Change(edits={"f.cl": [TextEdit(at, at, typed)]}))
    got = host.snapshot().diagnostics("f.cl")
    fresh = Host()
    fresh.set_file("f.cl", source[:at].encode() + typed + source[at:].encode())
    return got, fresh.snapshot().diagnostics("f.cl")


def test_a_broken_skeleton_reads_the_same_after_a_rehearsal() -> None:
    got, fresh = _after_rehearsal(BROKEN_SKELETON, BROKEN_SKELETON.index("o[i] = scale"), b"i")
    assert got == fresh
    assert "CL001" in {d.code for d in got}


def test_one_function_and_none() -> None:
    got, fresh = _after_rehearsal(ONE, ONE.index("= 1;"), b")")
    assert got == fresh and "CL001" in {d.code for d in got}  # `o[...] )= 1;`: a syntax error
    host = Host()
    host.set_file("d.cl", DECLARATIONS.encode())
    diags = host.snapshot().diagnostics("d.cl")
    assert not host.rehearse("d.cl")  # no definition: nothing an edit's run would re-read
    assert host.snapshot().diagnostics("d.cl") == diags


def test_a_document_closed_before_the_pause_is_not_rehearsed(tmp_path: Path) -> None:
    server = lsp.CllintServer()
    server.diagnostic_mode = "push"
    server.protocol.set_writer(StdoutWriter(io.BufferedWriter(io.BytesIO())))
    server.rehearse_after_s = 0.1
    uri = (tmp_path / "a.cl").as_uri()

    async def drive() -> None:
        server.loop = asyncio.get_running_loop()
        server.submit(server.open_document, uri, 1, ONE)
        server.schedule(uri, 1)
        while server.pending:
            await asyncio.sleep(0.01)
        server.cancel(uri)
        server.submit(server.close_document, uri)
        await asyncio.sleep(0.3)
        await asyncio.wrap_future(server.submit(lambda: None))

    asyncio.run(drive())
    assert server.rehearsals == 0
