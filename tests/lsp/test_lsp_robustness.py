"""The server keeps serving through hostile input; each test ends with a real request."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys

import pytest
from lsprotocol import types

from conftest import SERVER, URI, change, open_doc, published, pull

pytestmark = pytest.mark.slow
GOOD = "kernel void k(global float *a) {\n    a[0] = 1.0f;\n}\n"


async def alive(client, uri=URI):
    report = await pull(client, uri)
    assert report.kind == "full"
    return report


@pytest.mark.asyncio(loop_scope="module")
async def test_positions_past_end_and_surrogate_pairs(client):
    open_doc(client, "// 😀😀 x\n" + GOOD)
    change(client, 2, (0, 5), (0, 5), "é😀")  # inside the emoji run, counted in UTF-16 units
    change(client, 3, (0, 999), (0, 999), " tail")  # past end of line
    change(client, 4, (999, 0), (999, 5), "\n// end")  # past end of file
    report = await alive(client)
    assert report.result_id == f"{URI}@4" and list(report.items) == []
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(URI), types.Position(2, 4)))  # 'a' in 'a[0]'
    assert hover is not None and "global float" in hover.contents.value


@pytest.mark.asyncio(loop_scope="module")
async def test_burst_of_1000_edits_is_coalesced(client):
    open_doc(client, GOOD)
    waiter = asyncio.ensure_future(published(client, 1001))
    for v in range(2, 1002):
        change(client, v, (1, 4), (1, 4), "x" if v % 2 else "")
    await waiter
    report = await alive(client)
    assert report.result_id == f"{URI}@1001"
    # every edit was applied: 500 x's inserted at line 1
    doc_hover = await client.text_document_document_symbol_async(types.DocumentSymbolParams(
        types.TextDocumentIdentifier(URI)))
    assert [s.name for s in doc_hover] == ["k"]


@pytest.mark.asyncio(loop_scope="module")
async def test_close_while_analysing_and_unknown_document(client):
    big = GOOD * 2000
    open_doc(client, big)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(URI)))
    report = await pull(client)  # closed document: empty, no crash
    assert list(report.items) == []
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier("file:///nowhere.cl"), types.Position(0, 0)))
    assert hover is None
    open_doc(client, GOOD, version=7)
    assert (await alive(client)).result_id == f"{URI}@7"


@pytest.mark.asyncio(loop_scope="module")
async def test_five_megabyte_file(client):
    body = "kernel void k%d(global float *a) { a[0] = get_global_id(0); }\n"
    text = "".join(body % i for i in range(5 * 2**20 // len(body) + 1))
    assert len(text) >= 5 * 2**20
    open_doc(client, text)
    change(client, 2, (10, 0), (10, 0), "x")
    report = await alive(client)
    assert report.result_id == f"{URI}@2"


@pytest.mark.asyncio(loop_scope="module")
async def test_unknown_method_gets_error_then_server_answers(client):
    with pytest.raises(Exception):
        await client.protocol.send_request_async("cllint/noSuchMethod", {})
    open_doc(client, GOOD)
    await alive(client)


def _frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


def _read(proc) -> dict:
    length = 0
    while (line := proc.stdout.readline().strip()):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def test_malformed_json_rpc_over_raw_stdio():
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        def send(obj):
            proc.stdin.write(_frame(json.dumps(obj).encode()))
            proc.stdin.flush()
        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}}})
        assert "capabilities" in _read(proc)["result"]
        proc.stdin.write(_frame(b"{this is not json"))
        proc.stdin.write(_frame(b'{"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": 5}'))
        proc.stdin.flush()
        send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
        send({"jsonrpc": "2.0", "id": 3, "method": "shutdown"})
        for _ in range(10):
            msg = _read(proc)
            if msg.get("id") == 3:
                break
        assert msg == {"jsonrpc": "2.0", "id": 3, "result": None}
        assert proc.poll() is None
    finally:
        proc.kill()
        proc.wait()
