"""Diagnostics pushed from the analysis thread over stdio (issue 32): no hop to the event loop on
a keystroke's way; an analysis that a newer edit superseded pushes nothing; a closed document's
empty list comes after the last push of it."""

from __future__ import annotations

import asyncio
import io
import json
import threading
from pathlib import Path

from pygls.io_ import StdoutWriter

import cllint.server.lsp as lsp

KERNEL = "kernel void k(global int *p) { p[0] = 1; }\n"


class _Pipe(io.RawIOBase):
    def __init__(self) -> None:
        self.chunks: list[tuple[str, bytes]] = []

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:  # noqa: ANN001
        self.chunks.append((threading.current_thread().name, bytes(data)))
        return len(data)


def _server(pipe: _Pipe) -> lsp.CllintServer:
    server = lsp.CllintServer()
    server.diagnostic_mode = "push"
    server.protocol.set_writer(StdoutWriter(io.BufferedWriter(pipe)))
    return server


def _pushes(pipe: _Pipe) -> list[tuple[str, dict]]:
    out = []
    for thread, chunk in pipe.chunks:
        body = chunk.split(b"\r\n\r\n", 1)[1]
        out.append((thread, json.loads(body)["params"]))
    return out


def test_the_worker_writes_the_push_and_the_close(tmp_path: Path) -> None:
    pipe = _Pipe()
    server = _server(pipe)
    uri = (tmp_path / "a.cl").as_uri()

    async def drive() -> None:
        server.loop = asyncio.get_running_loop()
        server.submit(server.open_document, uri, 1, KERNEL)
        server.schedule(uri, 1)
        while server.pending:
            await asyncio.sleep(0.01)
        server.cancel(uri)
        server.submit(server.close_document, uri)
        await asyncio.wrap_future(server.submit(server.clear, uri))

    asyncio.run(drive())
    pushes = _pushes(pipe)
    assert [p.get("version") for _, p in pushes] == [1, None]
    assert pushes[-1][1]["diagnostics"] == []
    assert all(thread.startswith("cllint-host") for thread, _ in pushes)


def test_a_superseded_analysis_pushes_nothing(tmp_path: Path) -> None:
    pipe = _Pipe()
    server = _server(pipe)
    uri = (tmp_path / "a.cl").as_uri()
    server.open_document(uri, 1, KERNEL)
    server._generations[uri] = 2  # the loop scheduled the document again since
    assert server._analyse_and_post(uri, 1, 1) is None and pipe.chunks == []  # the newer one analyses
    assert server._analyse_and_post(uri, 1, 2) is not None and len(pipe.chunks) == 1
