"""Every request is answered (issue 22, item 4): params that violate the LSP schema get a
JSON-RPC -32602 error, for every method the server registers (hypothesis over the lsprotocol
types, through a real client), and bodies that are not requests get -32600/-32700.
Held-out cases: test_lsp_invalid_params_heldout.py."""

from __future__ import annotations

import asyncio
import json
import subprocess
import uuid
from concurrent.futures import Future
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from conftest import SERVER
from lsp_schema import ENDING, MISSING, is_request, mutated_params, structures

pytestmark = pytest.mark.slow
BUDGET_S = 10.0  # an answer within this, or the client would wait "forever"
# a failure is one unanswered request: shrinking would wait BUDGET_S per step
NO_SHRINK = (Phase.explicit, Phase.generate)
EXAMPLES = settings(max_examples=12, deadline=None, derandomize=True, database=None, phases=NO_SHRINK,
                    suppress_health_check=list(HealthCheck))


def _registered() -> list[str]:
    from cllint.server.handlers import create_server

    ls = create_server()
    fm = ls.protocol.fm
    ls.worker.shutdown(wait=True)
    return sorted(m for m in set(fm.features) | set(fm.builtin_features)
                  if m in types.METHOD_TO_TYPES and m not in ENDING)


METHODS = _registered()
REQUESTS = [m for m in METHODS if is_request(m)]
NOTIFICATIONS = [m for m in METHODS if not is_request(m)]


def message(method: str, params: Any, msg_id: str | None = None) -> dict:
    msg: dict = {"jsonrpc": "2.0", "method": method}
    if msg_id is not None:
        msg["id"] = msg_id
    if params is not MISSING:
        msg["params"] = params
    return msg


async def raw_request(client, method: str, params: Any) -> Any:
    """Send params exactly as given (the typed API would refuse them) and wait for the answer."""
    msg_id = str(uuid.uuid4())
    fut: Future = Future()
    client.protocol._request_futures[msg_id] = fut
    client.protocol._send_data(message(method, params, msg_id))
    return await asyncio.wait_for(asyncio.wrap_future(fut), BUDGET_S)


async def answered(client) -> None:
    """The server still serves: a real request gets its result."""
    assert await asyncio.wait_for(client.workspace_symbol_async(types.WorkspaceSymbolParams(query="")), BUDGET_S) == []


def test_the_server_registers_requests_and_notifications():
    assert {types.TEXT_DOCUMENT_COMPLETION, types.TEXT_DOCUMENT_HOVER, types.INITIALIZE,
            types.WORKSPACE_EXECUTE_COMMAND} <= set(REQUESTS)
    assert {types.TEXT_DOCUMENT_DID_OPEN, types.TEXT_DOCUMENT_DID_CHANGE} <= set(NOTIFICATIONS)


@pytest.mark.parametrize("method", REQUESTS)
@pytest.mark.asyncio(loop_scope="module")
@EXAMPLES
@given(data=st.data())
async def test_schema_violating_params_get_invalid_params_error(client, method, data):
    params = data.draw(mutated_params(method))
    assume(params is MISSING or not structures(method, params))
    with pytest.raises(JsonRpcException) as info:
        await raw_request(client, method, params)
    assert info.value.code == -32602, (method, params, info.value)


@pytest.mark.parametrize("method", NOTIFICATIONS)
@pytest.mark.asyncio(loop_scope="module")
@EXAMPLES
@given(data=st.data())
async def test_schema_violating_notifications_are_dropped_quietly(client, method, data):
    params = data.draw(mutated_params(method))
    assume(params is MISSING or not structures(method, params))
    shown = len(client.messages)
    client.protocol._send_data(message(method, params))
    await answered(client)
    assert client.messages[shown:] == []  # no "Error in server" pop-up for the user


# -- bodies that are not well-formed requests (raw stdio) -----------------------------------


def _frame(payload: bytes) -> bytes:
    return b"Content-Length: %d\r\n\r\n" % len(payload) + payload


def _read(proc) -> dict:
    length = 0
    while (line := proc.stdout.readline().strip()):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(proc.stdout.read(length))


def exchange(bodies: list[bytes]) -> list[dict]:
    """Initialize, send `bodies`, then shutdown (id 99): the error answers among what comes back."""
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    try:
        proc.stdin.write(_frame(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                            "params": {"capabilities": {}}}).encode()))
        for body in bodies:
            proc.stdin.write(_frame(body))
        proc.stdin.write(_frame(b'{"jsonrpc": "2.0", "id": 99, "method": "shutdown"}'))
        proc.stdin.flush()
        seen = []
        while not seen or seen[-1].get("id") != 99:
            seen.append(_read(proc))
        return [m for m in seen if "error" in m]
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.parametrize(("body", "code"), [
    (b"{this is not json", -32700),
    (b"5", -32600),
    (b'[{"jsonrpc": "2.0", "id": 7, "method": "shutdown"}]', -32600),
    (b'{"jsonrpc": "2.0", "id": 8, "method": "textDocument/hover", "params": 5}', -32602),
])
def test_bodies_that_are_not_requests_are_answered(body, code):
    (err,) = exchange([body])
    assert err["error"]["code"] == code
    assert err["id"] == (8 if code == -32602 else None)
