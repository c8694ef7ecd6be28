"""A keystroke's didChange read without pygls's generic path (issue 32, session 17): cattrs'
structuring, the generator hop and two uuid4s were ~a third of the event loop's CPU per
keystroke. `change_params` reads only params that are exactly the schema's, the same objects
cattrs makes; anything else (a wrong type, a key the schema does not have, a version out of
int32) returns None and takes pygls's path, which answers or logs it as before."""

from __future__ import annotations

import io
from pathlib import Path

from lsprotocol import types
from pygls.io_ import StdoutWriter

import cllint.server.lsp as lsp
from cllint.server.change_params import change_params

URI = "file:///tmp/k.cl"


def _params(changes: list, version: int = 3) -> dict:
    return {"textDocument": {"uri": URI, "version": version}, "contentChanges": changes}


def _cattrs(params: dict) -> types.DidChangeTextDocumentParams:
    server = lsp.CllintServer()
    msg = server.protocol.structure_message(
        {"jsonrpc": "2.0", "method": types.TEXT_DOCUMENT_DID_CHANGE, "params": params})
    got = lsp.LanguageServerProtocol.structure_message(server.protocol, msg)
    server.worker.shutdown(wait=True)
    return got.params


def test_the_schema_s_params_read_as_cattrs_reads_them() -> None:
    partial = {"range": {"start": {"line": 4, "character": 2}, "end": {"line": 4, "character": 2}}, "text": "f"}
    whole = {"text": "kernel void k() {}\n"}
    for changes in ([partial], [whole], [partial, whole, partial], []):
        assert change_params(_params(changes)) == _cattrs(_params(changes))


def test_anything_else_takes_pygls_s_path() -> None:
    bad = [
        None,
        {"textDocument": {"uri": URI}, "contentChanges": []},  # no version
        _params([{"range": {"start": {"line": "4", "character": 2}, "end": {"line": 4, "character": 2}},
                  "text": "f"}]),  # a string line
        _params([{"text": 3}]),
        _params([], version=True),  # a bool is not an integer
        _params([], version=1 << 40),  # past int32
        _params([{"range": {"start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}, "text": "",
                  "other": 1}]),  # a key the schema does not have
    ]
    for params in bad:
        assert change_params(params) is None, params


def test_a_change_read_either_way_leaves_the_same_text(tmp_path: Path) -> None:
    texts = []
    for fast in (True, False):
        server = lsp.CllintServer()
        server.diagnostic_mode = "push"
        server.protocol.set_writer(StdoutWriter(io.BufferedWriter(io.BytesIO())))
        uri = (tmp_path / "k.cl").as_uri()
        server.open_document(uri, 1, "kernel void k(global int *p) {\n    p[0] = 1;\n}\n")
        params = {"textDocument": {"uri": uri, "version": 2}, "contentChanges": [
            {"range": {"start": {"line": 1, "character": 4}, "end": {"line": 1, "character": 4}}, "text": "p[1] = 2; "}]}
        server.change_document(change_params(params) if fast else _cattrs(params))
        texts.append(server.docs[uri].index.text)
        server.worker.shutdown(wait=True)
    assert texts[0] == texts[1] == b"kernel void k(global int *p) {\n    p[1] = 2; p[0] = 1;\n}\n"
