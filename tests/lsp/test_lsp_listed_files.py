"""The editor reads a program a host joins from a list of file names as `cllint check` does
(cllint/project/listed_files.py): the kernel file read after the listed headers sees their
names, and the host buffer's line that lists a file no file of the workspace is gets CL002."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from pytest_lsp import ClientServerConfig, LanguageClient

from conftest import open_doc, pull, workspace_params

pytestmark = pytest.mark.slow

ROOT = Path(tempfile.mkdtemp(prefix="cllint-lsp-listed-"))
(ROOT / "kernels").mkdir()
(ROOT / "kernels" / "defs.h").write_text("#define DT 0.01f\ntypedef struct { float4 pos; float4 vel; } body_t;\n")
KERNEL = "__kernel void step(__global body_t *b) { size_t i = get_global_id(0); b[i].pos += b[i].vel * DT; }\n"
(ROOT / "kernels" / "step.cl").write_text(KERNEL)
HOST = ('import pyopencl as cl\n'
        'FILES = ["defs.h"]\n'
        'FILES += ["absent.h"]\n'
        'def program(ctx):\n'
        '    source = ""\n'
        '    for fn in FILES:\n'
        '        source += open("kernels/" + fn).read()\n'
        '    source += open("kernels/step.cl").read()\n'
        '    return cl.Program(ctx, source).build()\n')
(ROOT / "sim.py").write_text(HOST)
SERVER = [sys.executable, "-m", "cllint", "server"]


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(workspace_params(ROOT))
    yield
    await lsp_client.shutdown_session()


@pytest.mark.asyncio(loop_scope="module")
async def test_the_kernel_is_read_after_the_listed_headers(client: LanguageClient) -> None:
    uri = (ROOT / "kernels" / "step.cl").as_uri()
    open_doc(client, KERNEL, uri)
    report = await pull(client, uri)
    assert [str(d.code) for d in report.items] == ["CL007"], report.items


@pytest.mark.asyncio(loop_scope="module")
async def test_the_host_line_listing_a_missing_file_gets_cl002(client: LanguageClient) -> None:
    uri = (ROOT / "sim.py").as_uri()
    open_doc(client, HOST, uri)  # (the server reads the language from the name)
    report = await pull(client, uri)
    got = [(str(d.code), d.range.start.line, d.range.start.character, d.range.end.character) for d in report.items]
    assert ("CL002", 2, 11, 19) in got, report.items  # `absent.h`, its quotes left out
