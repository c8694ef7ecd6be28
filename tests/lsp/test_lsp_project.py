"""The editor reads a file through its program, as `cllint check` does (issue 29): a fragment of
a workspace folder sees the names its sibling defines, and a sibling saved with a new name
changes the fragment's diagnostics."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import open_doc, pull, workspace_params

pytestmark = pytest.mark.slow

ROOT = Path(tempfile.mkdtemp(prefix="cllint-lsp-project-"))
(ROOT / "common.cl").write_text("#define SCALE 3\nfloat helper(float x) { return x * SCALE; }\n")
MAIN = "__kernel void k(__global float *a) { a[0] = helper(a[1]) * SCALE + twice(a[2]); }\n"
(ROOT / "main.cl").write_text(MAIN)
SERVER = [sys.executable, "-m", "cllint", "server"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(workspace_params(ROOT))
    yield
    await lsp_client.shutdown_session()


async def codes(client: LanguageClient, uri: str) -> list[tuple[str, str]]:
    report = await pull(client, uri)
    return sorted((str(d.code), d.message) for d in report.items)


@pytest.mark.asyncio(loop_scope="module")
async def test_a_fragment_sees_its_siblings_names_and_a_saved_sibling_changes_it(client: LanguageClient) -> None:
    uri = (ROOT / "main.cl").as_uri()
    open_doc(client, MAIN, uri)
    got = await codes(client, uri)
    assert [c for c, _ in got] == ["CL007", "CL011"], got  # helper and SCALE from common.cl; twice unknown
    assert "twice" in got[1][1]
    # the sibling gains `twice` on disk and is saved: the fragment's program changes
    (ROOT / "common.cl").write_text("#define SCALE 3\nfloat helper(float x) { return x * SCALE; }\n"
                                    "float twice(float x) { return x + x; }\n")
    client.text_document_did_save(types.DidSaveTextDocumentParams(
        types.TextDocumentIdentifier((ROOT / "common.cl").as_uri())))
    for _ in range(100):
        got = await codes(client, uri)
        if [c for c, _ in got] == ["CL007"]:
            break
        import asyncio

        await asyncio.sleep(0.1)
    assert [c for c, _ in got] == ["CL007"], got
