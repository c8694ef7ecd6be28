"""The editor excuses headers the host supplies by name, as `cllint check` does (issue 29): an
`#include` of a name the workspace's host code adds to the program (`AddHeader("given.h", src)`)
is no CL002 in the open file, while another missing header still is."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import open_doc, pull, workspace_params

pytestmark = pytest.mark.slow

ROOT = Path(tempfile.mkdtemp(prefix="cllint-lsp-host-headers-"))
(ROOT / "host.cpp").write_text('void Build(ClwProgram &program) { program.AddHeader("given.h", MakeSource()); }\n')
KERNEL = '#include "given.h"\n#include "absent.h"\nkernel void k(global int *a) { a[0] = GIVEN_VALUE; }\n'
(ROOT / "k.cl").write_text(KERNEL)
SERVER = [sys.executable, "-m", "cllint", "server"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(workspace_params(ROOT))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_only_the_header_no_one_supplies_is_missing(client: LanguageClient) -> None:
    uri = (ROOT / "k.cl").as_uri()
    open_doc(client, KERNEL, uri)
    report = await pull(client, uri)
    got = sorted((str(d.code), d.range.start.line, d.message) for d in report.items)
    assert got == [("CL002", 1, "cannot find include file 'absent.h'")], got
