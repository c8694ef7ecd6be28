"""Held-out cases for issue 22 item 4 (written with the others, not used while coding)."""

from __future__ import annotations

import pytest
from pygls.exceptions import JsonRpcException

from lsp_schema import MISSING, URI
from test_lsp_invalid_params import answered, exchange, raw_request

pytestmark = pytest.mark.slow


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_without_text_document_names_the_field(client):
    with pytest.raises(JsonRpcException) as info:
        await raw_request(client, "textDocument/completion", {"position": {"line": 0, "character": 0}})
    assert info.value.code == -32602 and "textDocument" in info.value.message
    await answered(client)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("method", "params"), [
    ("textDocument/hover", [URI, 0, 0]),
    ("textDocument/rename", {"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}, "newName": 7}),
    ("workspace/executeCommand", {"arguments": []}),
    ("textDocument/documentSymbol", MISSING),
])
async def test_more_schema_violations(client, method, params):
    with pytest.raises(JsonRpcException) as info:
        await raw_request(client, method, params)
    assert info.value.code == -32602
    await answered(client)


def test_request_after_shutdown_and_wrong_version_are_answered():
    errors = exchange([b'{"jsonrpc": "1.0", "id": 5, "method": "textDocument/hover", "params": {}}',
                       b'{"jsonrpc": "2.0", "id": 6, "method": "shutdown"}',
                       b'{"jsonrpc": "2.0", "id": 7, "method": "workspace/symbol", "params": {"query": ""}}'],
                      )
    assert [(e["id"], e["error"]["code"]) for e in errors[:2]] == [(5, -32600), (7, -32600)]
