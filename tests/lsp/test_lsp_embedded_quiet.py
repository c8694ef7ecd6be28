"""Host buffers share the editor with the user's own Python or C++ server (issue 20, step 3):
cllint answers nothing outside the kernels there (semantic tokens cover only the string), and its quick fixes never write OpenCL C
comments into host code."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from conftest import open_doc, published

pytestmark = pytest.mark.slow
URI = "file:///tmp/cllint-lsp-quiet/app.py"
PY = ('import pyopencl as cl\n'
      'prg = cl.Program(ctx, "__kernel void k(__global int *o) { o[0] = nope; }").build()\n')


@pytest.mark.asyncio(loop_scope="module")
async def test_python_buffer_gets_no_opencl_answers(client):
    waiter = asyncio.ensure_future(published(client, 1, URI))
    open_doc(client, PY, URI)
    diag = (await waiter).diagnostics[0]
    doc = types.TextDocumentIdentifier(URI)
    at = types.Position(1, 4)  # on the Python name 'prg'
    assert await client.text_document_hover_async(types.HoverParams(doc, at)) is None
    assert await client.text_document_completion_async(types.CompletionParams(doc, at)) is None
    assert await client.text_document_signature_help_async(types.SignatureHelpParams(doc, at)) is None
    assert await client.text_document_document_symbol_async(types.DocumentSymbolParams(doc)) is None
    tokens = (await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(doc))).data
    string = (PY.splitlines()[1].index('"'), PY.splitlines()[1].rindex('"'))
    starts = [sum(tokens[1:i + 2:5]) for i in range(0, len(tokens), 5)]  # all on line 1
    assert tokens[0] == 1 and not any(tokens[5::5]), tokens  # only the string's tokens, none in Python
    assert all(string[0] < s < string[1] for s in starts), (starts, string)
    assert await client.text_document_code_lens_async(types.CodeLensParams(doc)) is None
    assert await client.text_document_folding_range_async(types.FoldingRangeParams(doc)) is None
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        doc, diag.range, types.CodeActionContext([diag])))
    for action in actions or []:
        for edits in (action.edit.changes or {}).values() if action.edit else []:
            # '// cllint: ignore' after '.build()' would break the Python line
            assert not any("cllint: ignore" in e.new_text for e in edits), action.title
