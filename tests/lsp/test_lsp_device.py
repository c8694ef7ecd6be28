"""Run on device through the language server: code lenses, the cllint.* commands and build
on save, against PoCL (a real client over stdio, no mocks)."""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "cllint", "server"]
pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]
DIR = Path(tempfile.mkdtemp(prefix="cllint-lsp-device-"))
INIT: list[types.InitializeResult] = []
SETTINGS = {"device": "cpu", "buildOnSave": True, "timeout": 10}

VADD = """\
// cllint-run: global=16 iterations=1 a=range:float b=fill(2) n=16
__kernel void vadd(__global const float *a, __global const float *b, __global float *c, uint n)
{
    size_t i = get_global_id(0);
    if (i < n)
        c[i] = a[i] + b[i];
}

__kernel void scale(__global float *x, float k)
{
    x[get_global_id(0)] *= k;
}
"""
BROKEN = """\
__kernel void broken(__global float *a)
{
    a[0] = 1.0f;
    a[1] = undeclared_thing;
}
"""
SPIN = """\
// cllint-run: global=1 flag=zeros:int:1
__kernel void spin(__global int *flag)
{
    while (flag[0] == 0) { }
}
"""


def _file(name: str, text: str) -> str:
    path = DIR / name
    path.write_text(text)
    return path.as_uri()


def _open(client: LanguageClient, uri: str, text: str, version: int = 1) -> None:
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=version, text=text)))


async def _execute(client: LanguageClient, command: str, *args):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command, list(args)))


async def _published(client: LanguageClient, uri: str, accept, timeout: float = 20):
    async def wait():
        while True:
            p = await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            if p.uri == uri and accept(p):
                return p
    return await asyncio.wait_for(wait(), timeout)


DEVICES: list[list[dict]] = []


async def need_pocl(client: LanguageClient) -> list[dict]:
    """The server's device list (listed once); skips without a PoCL CPU device."""
    if not DEVICES:
        DEVICES.append(await _execute(client, "cllint.listDevices"))
    devices = DEVICES[0]
    if not isinstance(devices, list) or not any(d["type"] == "cpu" and not d["oclgrind"] for d in devices):
        pytest.skip("no CPU OpenCL device (apt-get install pocl-opencl-icd)")
    return devices


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("neovim"),
        initialization_options={"diagnosticMode": "push", "debounceMs": 1, "settings": SETTINGS},
    )
    INIT.append(await lsp_client.initialize_session(params))
    yield
    await lsp_client.shutdown_session()


async def test_advertises_the_contract(client: LanguageClient):
    commands = INIT[0].capabilities.execute_command_provider.commands
    for name in ("cllint.runKernel", "cllint.buildOnDevice", "cllint.listDevices", "cllint.selectDevice", "cllint.build"):
        assert name in commands
    assert INIT[0].capabilities.code_lens_provider is not None


async def test_code_lens_per_kernel(client: LanguageClient):
    uri = _file("lens.cl", VADD)
    _open(client, uri, VADD)
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert [(lens.command.command, list(lens.command.arguments)) for lens in lenses] == [
        ("cllint.runKernel", [uri, "vadd"]), ("cllint.runKernel", [uri, "scale"])]
    assert [lens.range.start.line for lens in lenses] == [1, 8]


@pytest.mark.device
async def test_list_and_select_devices(client: LanguageClient):
    devices = await need_pocl(client)
    cpu = next(d for d in devices if d["type"] == "cpu" and not d["oclgrind"])
    assert "Portable Computing Language" in cpu["platform"]
    assert set(cpu) >= {"index", "platform", "name", "type", "version", "opencl_c_version", "selector"}
    assert cpu["selector"] == str(cpu["index"])
    assert await _execute(client, "cllint.selectDevice", "device:1") == {"ok": True, "device": "1"}
    assert await _execute(client, "cllint.selectDevice", None) == {"ok": True, "device": None}


@pytest.mark.device
async def test_build_on_device_and_on_save(client: LanguageClient):
    await need_pocl(client)
    uri = _file("broken.cl", BROKEN)
    _open(client, uri, BROKEN)
    result = await _execute(client, "cllint.buildOnDevice", uri)
    assert result["ok"] is False and result["device"]["type"] == "cpu"
    cl901 = [d for d in result["diagnostics"] if d["code"] == "CL901"]
    assert cl901 and cl901[0]["range"]["start"]["line"] == 3 and cl901[0]["uri"] == uri
    assert cl901[0]["severity"] == "error" and "undeclared_thing" in cl901[0]["message"]
    assert any(m.type == types.MessageType.Error and "build failed" in m.message for m in client.messages)

    saved = _published(client, uri, lambda p: any(d.code == "CL901" for d in p.diagnostics))
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    merged = await saved
    device_diag = next(d for d in merged.diagnostics if d.code == "CL901")
    assert device_diag.range.start.line == 3

    # an edit drops the device diagnostics until the next save
    cleared = _published(client, uri, lambda p: p.version == 2)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="\n")]))
    assert not any(d.code == "CL901" for d in (await cleared).diagnostics)


@pytest.mark.device
async def test_run_kernel_returns_outputs(client: LanguageClient):
    await need_pocl(client)
    uri = _file("vadd.cl", VADD)
    _open(client, uri, VADD)
    result = await _execute(client, "cllint.runKernel", uri, "vadd")
    assert result["ok"] is True, result
    assert result["kernel"] == "vadd" and result["global_size"] == [16]
    assert result["device"]["type"] == "cpu" and result["timing"]["iterations"] >= 1
    c = next(o for o in result["outputs"] if o["name"] == "c")
    assert c["first"][:4] == [2.0, 3.0, 4.0, 5.0] and c["count"] == 16
    assert any("'vadd' on" in m.message for m in client.messages)


@pytest.mark.device
async def test_hanging_kernel_is_stopped_and_server_keeps_serving(client: LanguageClient):
    await need_pocl(client)
    uri = _file("spin.cl", SPIN)
    _open(client, uri, SPIN)
    result = await _execute(client, "cllint.runKernel", uri, "spin")
    assert result["ok"] is False and "stopped after" in result["error"], result
    assert any(m.type == types.MessageType.Error and "stopped after" in m.message for m in client.messages)
    symbols = await client.text_document_document_symbol_async(
        types.DocumentSymbolParams(types.TextDocumentIdentifier(uri)))
    assert [s.name for s in symbols] == ["spin"]


async def test_untrusted_workspace_never_builds(client: LanguageClient):
    uri = _file("untrusted.cl", VADD)
    _open(client, uri, VADD)
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        {"cllint": {**SETTINGS, "trustedWorkspace": False}}))
    try:
        result = await _execute(client, "cllint.runKernel", uri, "vadd")
        assert result["ok"] is False and "untrusted" in result["error"]
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams({"cllint": SETTINGS}))


async def test_device_target_is_read_once_in_the_pool(monkeypatch):
    from cllint.analysis.target import Target
    from cllint.server import device

    calls = []
    real = Target.preset("CL3.0")
    monkeypatch.setattr(device, "profile_target_job", lambda i: calls.append(i) or real)
    session = device.DeviceSession()
    ready = __import__("threading").Event()
    read = session.device_reader(ready.set)
    assert read(0).name == "CL1.2"  # a stand-in until the device is known, read in the pool
    assert ready.wait(5)
    assert read(0) is real and read(0) is real and calls == [0]
    assert device.annotated_kernels(VADD) == ["vadd"] and device.annotated_kernels(SPIN) == ["spin"]
    assert device.selector("device:2") == "2" and device.selector("") is None
