"""Issue 34 end to end: run on save through the real server on PoCL, the history in
.cllint/runs.jsonl, CL920 / CL921 against the previous run, the lens's title, `cllint runs`.

Timing is made robust, not lucky: the slower version does 100 times the loop work of the first
(10,000 dependent loads and adds per work-item against 100), tens of milliseconds against a
fraction of one, so scheduling noise on a loaded machine cannot close the gap; CL920 is only
asserted for that save, and every other assertion is about outputs, which do not depend on time."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

SERVER = [sys.executable, "-m", "cllint", "server"]
pytestmark = [pytest.mark.slow, pytest.mark.device, pytest.mark.asyncio(loop_scope="module")]
ROOT = Path(tempfile.mkdtemp(prefix="cllint-lsp-runs-"))
SUB = ROOT / "kernels"
SETTINGS = {"device": "cpu", "runOnSave": True, "timeout": 120}
RECORDED: list[dict] = []
REFRESHES: list[int] = []

KERNEL = """\
#define REPS {reps}
// cllint-run: global=4096 iterations=5 a=range:float b=fill(2) c=zeros:float:4096:show
__kernel void work(__global const float *a, __global const float *b, __global float *c)
{{
    size_t i = get_global_id(0);
    float acc = 0.0f;
    for (int r = 0; r < REPS; r++)
        acc += b[(i + r) & 4095] * 0.0f;  /* +0: the loop's work changes no output */
    c[i] = a[i] {op} b[i] + acc;
}}
"""
FAST = KERNEL.format(reps=100, op="+")
SLOW = KERNEL.format(reps=10000, op="+")  # 100x the work, the same output
CHANGED = KERNEL.format(reps=100, op="-")  # other output


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    SUB.mkdir(parents=True, exist_ok=True)
    (ROOT / ".cllint.toml").write_text("# the workspace root: the history goes here\n")

    @lsp_client.feature("cllint/runRecorded")
    def recorded(params) -> None:
        RECORDED.append(_plain(params))

    @lsp_client.feature(types.WORKSPACE_CODE_LENS_REFRESH)
    def refresh_lenses(params) -> None:
        REFRESHES.append(1)

    caps = client_capabilities("visual-studio-code")
    params = types.InitializeParams(
        capabilities=caps, root_uri=ROOT.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=ROOT.as_uri(), name="runs")],
        initialization_options={"diagnosticMode": "push", "debounceMs": 1, "settings": SETTINGS},
    )
    await lsp_client.initialize_session(params)
    devices = await _execute(lsp_client, "cllint.listDevices")
    if not isinstance(devices, list) or not any(d["type"] == "cpu" and not d["oclgrind"] for d in devices):
        pytest.skip("no CPU OpenCL device (apt-get install pocl-opencl-icd)")
    yield
    await lsp_client.shutdown_session()


def _plain(value):
    """Params of a notification the client has no type for, as plain JSON values."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if hasattr(value, "_asdict"):
        return {k: _plain(v) for k, v in value._asdict().items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


async def _execute(client: LanguageClient, command: str, *args):
    return await client.workspace_execute_command_async(types.ExecuteCommandParams(command, list(args)))


async def _recorded(count: int, timeout: float = 120) -> dict:
    async def wait() -> dict:
        while len(RECORDED) < count:
            await asyncio.sleep(0.05)
        return RECORDED[count - 1]
    return await asyncio.wait_for(wait(), timeout)


def _diags(client: LanguageClient, uri: str) -> list[types.Diagnostic]:
    return list(client.diagnostics.get(uri, []))


async def _published(client: LanguageClient, uri: str, accept, timeout: float = 30) -> list[types.Diagnostic]:
    async def wait() -> list[types.Diagnostic]:
        while not accept(_diags(client, uri)):
            await asyncio.sleep(0.05)
        return _diags(client, uri)
    return await asyncio.wait_for(wait(), timeout)


def _save(client: LanguageClient, path: Path, text: str, version: int) -> None:
    """What an editor does: the buffer changes, the file is written, didSave."""
    path.write_text(text)
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=path.as_uri(), version=version),
        [types.TextDocumentContentChangeWholeDocument(text=text)]))
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(path.as_uri())))


def _history() -> list[dict]:
    return [json.loads(x) for x in (ROOT / ".cllint" / "runs.jsonl").read_text().splitlines() if x.strip()]


def _lines(rel: str) -> list[dict]:
    return [e for e in _history() if e["file"] == rel]


async def test_save_slower_then_changed_output(client: LanguageClient):
    path = SUB / "work.cl"
    uri = path.as_uri()
    path.write_text(FAST)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=1, text=FAST)))
    start = len(RECORDED)

    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    first = await _recorded(start + 1)
    assert first["ok"] and first["kernel"] == "work" and first["change"] is None, first
    assert first["title"].startswith("▶ Run · ") and first["title"].endswith(" · PoCL"), first

    # 100x the work, the same output: CL920 (information) at the kernel's name, no CL921
    _save(client, path, SLOW, 2)
    second = await _recorded(start + 2)
    assert second["ok"] and second["output_changed"] is None, second
    assert second["slower"], second
    diags = await _published(client, uri, lambda ds: any(d.code == "CL920" for d in ds))
    cl920 = next(d for d in diags if d.code == "CL920")
    assert not any(d.code == "CL921" for d in diags)
    assert cl920.severity == types.DiagnosticSeverity.Information
    assert (cl920.range.start.line, cl920.range.start.character, cl920.range.end.character) == (2, 14, 18)
    assert "slower than the previous run's" in cl920.message and cl920.message.count(" ms") >= 2
    lenses = await client.text_document_code_lens_async(types.CodeLensParams(types.TextDocumentIdentifier(uri)))
    assert lenses[0].command.title == second["title"] and "slower" in second["title"], lenses
    assert REFRESHES, "the server asks the editor to ask for the lenses again after a run"

    # another output: CL921 (warning) naming the buffer, the first index and both values
    _save(client, path, CHANGED, 3)
    third = await _recorded(start + 3)
    assert third["ok"] and not third["slower"], third
    diags = await _published(client, uri, lambda ds: any(d.code == "CL921" for d in ds))
    cl921 = next(d for d in diags if d.code == "CL921")
    assert cl921.severity == types.DiagnosticSeverity.Warning
    assert cl921.message == "output 'c' changed since the previous run: c[0] is -2, was 2", cl921.message
    assert not any(d.code == "CL920" for d in diags)  # faster than the slow save
    assert "≠ c" in third["title"]

    entries = _lines("kernels/work.cl")
    assert len(entries) == 3 and [e["via"] for e in entries] == ["save"] * 3
    assert len({e["source_digest"] for e in entries}) == 3
    assert entries[0]["launch"] == entries[2]["launch"] and entries[0]["device"] == entries[2]["device"]
    assert all(len(o["sample"]) <= 1024 for e in entries for o in e["outputs"])
    assert (ROOT / ".cllint" / ".gitignore").is_file()

    # `cllint runs` lists them, one sparkline for the kernel
    out = subprocess.run([sys.executable, "-m", "cllint", "runs", str(path)], capture_output=True, text=True,
                         cwd=ROOT, timeout=60)
    assert out.returncode == 0, out.stderr
    text = out.stdout.splitlines()
    assert text[0].startswith("kernels/work.cl: work on ") and text[0].endswith("(3 runs)"), out.stdout
    assert len(text[1].split()[0]) == 3 and text[1].split()[0][1] == "█", out.stdout
    assert "[CL920]" in text[3] and "[CL921]" in text[4] and "[CL921]" not in text[3], out.stdout
    listed = await _execute(client, "cllint.listRuns", uri)
    assert [r["compared"] and r["compared"]["slower"] for r in listed["runs"]] == [None, True, False]

    # an edit drops the run's diagnostics until the next run
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=4),
        [types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="\n")]))
    await _published(client, uri, lambda ds: not any(d.code in ("CL920", "CL921") for d in ds))


async def test_saves_during_a_run_queue_one_more_with_the_latest_text(client: LanguageClient):
    path = SUB / "queue.cl"
    uri = path.as_uri()
    path.write_text(SLOW)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=1, text=SLOW)))
    start = len(RECORDED)
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    await asyncio.sleep(0.1)  # the first round is under way (about a second: a worker, six 90 ms launches)
    for version, text in ((2, FAST), (3, SLOW), (4, CHANGED)):
        _save(client, path, text, version)
    await _recorded(start + 2)
    await asyncio.sleep(3)  # a pile would have started its third run by now
    entries = _lines("kernels/queue.cl")
    assert len(entries) == 2, [e["source_digest"][:15] for e in entries]
    changed = "sha256:" + __import__("hashlib").sha256(CHANGED.encode()).hexdigest()
    assert entries[1]["source_digest"] == changed  # the queued round read the latest text
    assert len(RECORDED) == start + 2


async def test_untrusted_workspace_never_runs_on_save(client: LanguageClient):
    path = SUB / "untrusted.cl"
    uri = path.as_uri()
    path.write_text(FAST)
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=1, text=FAST)))
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        {"cllint": {**SETTINGS, "trustedWorkspace": False}}))
    try:
        client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
        await asyncio.sleep(2)
        assert _lines("kernels/untrusted.cl") == []
    finally:
        client.workspace_did_change_configuration(types.DidChangeConfigurationParams({"cllint": SETTINGS}))
