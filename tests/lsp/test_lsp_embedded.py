"""Kernels inside host code through the language server: Python buffers that import
pyopencl get their kernels' diagnostics (on by default), C/C++ buffers only with
`embeddedCpp`, and no OpenCL feature reads a host buffer as OpenCL C."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from conftest import change, open_doc, published, pull

pytestmark = pytest.mark.slow
PY_URI = "file:///tmp/cllint-lsp-test/app.py"
PLAIN_URI = "file:///tmp/cllint-lsp-test/plain.py"
CPP_URI = "file:///tmp/cllint-lsp-test/host.cpp"
PY = ('import pyopencl as cl\n'
      'prg = cl.Program(ctx, "__kernel void k(__global int *o) { o[0] = nope; }").build()\n')
CPP = ('const char *src = R"(kernel void k(global int *o) { o[0] = bad; })";\n'
       'void f() { clCreateProgramWithSource(0, 1, &src, 0, 0); }\n')


def ranges(items) -> list[tuple[str, int, int, int]]:
    return [(d.code, d.range.start.line, d.range.start.character, d.range.end.character) for d in items]


@pytest.mark.asyncio(loop_scope="module")
async def test_python_buffer_that_imports_pyopencl(client):
    waiter = asyncio.ensure_future(published(client, 1, PY_URI))
    open_doc(client, PY, PY_URI)
    col = PY.splitlines()[1].index("nope")
    assert ranges((await waiter).diagnostics) == [("CL010", 1, col, col + 4)]
    # an edit inside the string: the kernel is read again
    waiter = asyncio.ensure_future(published(client, 2, PY_URI))
    change(client, 2, (1, col), (1, col + 4), "1", PY_URI)
    assert list((await waiter).diagnostics) == []
    hover = await client.text_document_hover_async(types.HoverParams(
        types.TextDocumentIdentifier(PY_URI), types.Position(0, 8)))
    assert hover is None  # Python is not read as OpenCL C


@pytest.mark.asyncio(loop_scope="module")
async def test_python_without_pyopencl_is_quiet(client):
    open_doc(client, PY.replace("import pyopencl as cl", "import json"), PLAIN_URI)
    report = await pull(client, PLAIN_URI)
    assert list(report.items) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_cpp_is_opt_in(client):
    open_doc(client, CPP, CPP_URI)
    assert list((await pull(client, CPP_URI)).items) == []
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedCpp": True}}))
    col = CPP.index("bad")
    for _ in range(50):  # the new settings re-lint open documents
        items = list((await pull(client, CPP_URI)).items)
        if items:
            break
        await asyncio.sleep(0.1)
    assert ranges(items) == [("CL010", 0, col, col + 3)]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedCpp": False}}))
