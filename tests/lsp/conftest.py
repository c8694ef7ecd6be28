"""A real LSP client talking to `python -m cllint server` over stdio."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "cllint", "server"]
URI = "file:///tmp/cllint-lsp-test/k.cl"


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        initialization_options={"diagnosticMode": "both", "debounceMs": 1},
    )
    await lsp_client.initialize_session(params)
    yield
    await lsp_client.shutdown_session()


def workspace_params(root: Path) -> types.InitializeParams:
    """A VS Code session with `root` as its one workspace folder (the project model reads it),
    both diagnostic modes, no debounce, the clang layer off."""
    return types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name="project")],
        initialization_options={"diagnosticMode": "both", "debounceMs": 1, "settings": {"compilerCheck": "off"}},
    )


def open_doc(client: LanguageClient, text: str, uri: str = URI, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=version, text=text)))


def change(client: LanguageClient, version: int, start: tuple[int, int], end: tuple[int, int], text: str,
           uri: str = URI) -> None:
    rng = types.Range(types.Position(*start), types.Position(*end))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        [types.TextDocumentContentChangePartial(range=rng, text=text)]))


async def pull(client: LanguageClient, uri: str = URI, previous: str | None = None):
    return await client.text_document_diagnostic_async(types.DocumentDiagnosticParams(
        types.TextDocumentIdentifier(uri), previous_result_id=previous))


async def published(client: LanguageClient, version: int, uri: str = URI, timeout: float = 15):
    """Wait for publishDiagnostics of `uri` at `version` (call before sending the edit)."""
    async def wait():
        while True:
            params = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if params.uri == uri and params.version == version:
                return params
    return await asyncio.wait_for(wait(), timeout)
