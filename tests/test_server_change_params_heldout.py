"""Held-out cases for server/change_params.py (tests/test_server_change_params.py)."""

from __future__ import annotations

from lsprotocol import types

import cllint.server.lsp as lsp
from cllint.server.change_params import change_params


def _cattrs(params: dict):  # noqa: ANN202
    server = lsp.CllintServer()
    msg = server.protocol.structure_message(
        {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_DID_CHANGE, "params": params})
    got = lsp.LanguageServerProtocol.structure_message(server.protocol, msg)
    server.worker.shutdown(wait=True)
    return got.params


def test_range_length_and_astral_text() -> None:
    params = {"textDocument": {"uri": "file:///a%20b/k.cl", "version": 0}, "contentChanges": [
        {"range": {"start": {"line": 0, "character": 1}, "end": {"line": 2, "character": 0}}, "rangeLength": 7,
         "text": "\U0001F600 // \u00e9"}]}
    got = change_params(params)
    assert got is not None and got == _cattrs(params)
    assert got.content_changes[0].range_length == 7


def test_negative_positions_and_a_list_for_an_object() -> None:
    neg = {"textDocument": {"uri": "file:///k.cl", "version": 2}, "contentChanges": [
        {"range": {"start": {"line": -1, "character": 0}, "end": {"line": 0, "character": 0}}, "text": ""}]}
    assert change_params(neg) is None  # a uinteger below zero: pygls's path says so
    listed = {"textDocument": ["file:///k.cl", 2], "contentChanges": []}
    assert change_params(listed) is None


def test_a_null_version_and_extra_top_level_keys() -> None:
    assert change_params({"textDocument": {"uri": "file:///k.cl", "version": None}, "contentChanges": []}) is None
    assert change_params({"textDocument": {"uri": "file:///k.cl", "version": 1}, "contentChanges": [],
                          "workDoneToken": "x"}) is None
