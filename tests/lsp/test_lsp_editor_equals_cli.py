"""Editor == command line on every published version (issue 33): seeded random edits through
the real server (`cllint server` over stdio), broken code included, to darktable's basic.cl
(9 seeds) and Random123's philox.cl (3 seeds), each in a folder with the headers it includes.
Every publishDiagnostics the server sends is compared with what `cllint check` says about
that version's text, written to the same path: the same ranges (LSP positions of the
server's encoding), codes, severities, messages, tags and same-file notes.

The command-line side is `cli/cmd_check._check`, called in this process: the function
`cllint check --no-cache PATH` runs between parsing its arguments and printing, so its
per-file configuration, project model and hint filter included. Two differences by design
are set aside: the server is started with no analysis budget (its default is 2 s, the
CLI's none) and no clang layer (`cllint check` runs clang only with --compiler); hints
(CL304) are left out, which `cllint check` shows only when selected by code. The edits
never type NUL (a file with one in its first 8 KB is skipped by `cllint check` as binary).

Before the fix (Host reparse_broken) 39 of 180 such versions of basic.cl, linted in
process, reported a CL001 that `cllint check` did not, or at another column.
"""

from __future__ import annotations

import asyncio
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from debian_kernels import darktable_basic, random123_philox  # noqa: E402
from edit_fuzzer import EditFuzzer, lsp_position  # noqa: E402

from cllint.cli import cmd_check  # noqa: E402
from cllint.cli.main import build_parser  # noqa: E402
from cllint.server import convert  # noqa: E402

pytestmark = pytest.mark.slow
SERVER = [sys.executable, "-m", "cllint", "server"]
EDITS = 20  # per run, sent in bursts of 1 to 5 (the server may publish any version of a burst)
CASES = [("basic.cl", seed) for seed in range(9)] + [("philox.cl", seed) for seed in range(3)]


@dataclass
class Seen:
    """What the client was sent: every publishDiagnostics (pytest-lsp keeps only the latest
    of each document), and the position encoding the server chose."""

    encoding: str
    published: list[types.PublishDiagnosticsParams] = field(default_factory=list)


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER), scope="module")
async def client(lsp_client: LanguageClient):
    params = types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"),
        initialization_options={"diagnosticMode": "push", "debounceMs": 1,
                                "settings": {"compilerCheck": "off", "analysisBudget": 0}})
    result = await lsp_client.initialize_session(params)
    seen = Seen(str(result.capabilities.position_encoding or convert.UTF16))
    features = lsp_client.protocol.fm.features
    keep = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]
    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = lambda p: (seen.published.append(p), keep(p))[1]
    lsp_client.seen = seen
    yield
    await lsp_client.shutdown_session()


@pytest.fixture(scope="module")
def kernels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("kernels")
    return {"basic.cl": darktable_basic(root), "philox.cl": random123_philox(root)}


class _NoNul(EditFuzzer):
    def piece(self, kind: str) -> str:
        return super().piece(kind).replace("\x00", "")


def _held(text: str) -> bytes:
    """The bytes the server holds for `text` (server/lsp.py: lone surrogates as UTF-8 would
    spell them), which `cllint check` is given."""
    return text.encode("utf-8", "surrogatepass")


def _cli(path: Path, data: bytes) -> list:
    """`cllint check --no-cache PATH` on `data`, as diagnostics (see the module docstring)."""
    path.write_bytes(data)
    args = build_parser("check").parse_args(["check", "--no-cache", str(path)])
    results, io_errors, _, _ = cmd_check._check(args, cmd_check.SettingsResolver(cmd_check._overrides(args)))
    assert io_errors == 0 and len(results) == 1
    return results[0].diagnostics


def _row(rng: dict, code, severity: int, message: str, tags, related) -> tuple:
    return ((rng["start"]["line"], rng["start"]["character"], rng["end"]["line"], rng["end"]["character"]),
            code, severity, message, tuple(tags or ()), tuple(related))


def _cli_rows(path: Path, data: bytes, encoding: str) -> list[tuple]:
    index = convert.LineIndex(data, encoding)
    rows = []
    for d in _cli(path, data):
        j = convert.to_lsp_json(d, index)
        related = sorted((r["message"], str(r["location"]["range"])) for r in j.get("relatedInformation", ())
                         if r["location"]["uri"] == str(path))
        rows.append(_row(j["range"], j["code"], j["severity"], j["message"], j.get("tags"), related))
    return sorted(rows)


def _server_rows(params: types.PublishDiagnosticsParams, uri: str) -> list[tuple]:
    rows = []
    for d in params.diagnostics:
        if d.severity == types.DiagnosticSeverity.Hint:
            continue
        rng = {"start": {"line": d.range.start.line, "character": d.range.start.character},
               "end": {"line": d.range.end.line, "character": d.range.end.character}}
        related = sorted((r.message, str({"start": {"line": r.location.range.start.line,
                                                   "character": r.location.range.start.character},
                                         "end": {"line": r.location.range.end.line,
                                                 "character": r.location.range.end.character}}))
                         for r in d.related_information or () if r.location.uri == uri)
        rows.append(_row(rng, d.code, int(d.severity), d.message, [int(t) for t in d.tags or ()], related))
    return sorted(rows)


async def _published(seen: Seen, uri: str, version: int, timeout: float = 120) -> None:
    async def wait() -> None:
        while not any(p.uri == uri and p.version == version for p in seen.published):
            await asyncio.sleep(0.01)
    await asyncio.wait_for(wait(), timeout)


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize(("name", "seed"), CASES, ids=[f"{n}-{s}" for n, s in CASES])
async def test_every_published_version_is_what_cllint_check_says(client, kernels, name, seed):
    path = kernels[name]
    original = path.read_bytes()
    text = original.decode("utf-8", "surrogateescape")
    uri = path.as_uri()
    fuzz = _NoNul(3300 + seed, limit=int(len(text) * 1.3))
    texts = {1: text}
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="opencl", version=1, text=text)))
    seen = client.seen
    await _published(seen, uri, 1)
    version, edits = 1, list(fuzz.edits(text, EDITS))
    while edits:
        n = fuzz.rng.randint(1, 5)
        burst, edits = edits[:n], edits[n:]
        for e, after in burst:
            version += 1
            start, end = lsp_position(text, e.start), lsp_position(text, e.end)
            client.text_document_did_change(types.DidChangeTextDocumentParams(
                types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                [types.TextDocumentContentChangePartial(range=types.Range(types.Position(*start), types.Position(*end)),
                                                        text=e.text)]))
            texts[version] = text = after
        await _published(seen, uri, version)
    client.text_document_did_close(types.DidCloseTextDocumentParams(types.TextDocumentIdentifier(uri)))
    # without a version: the clearing sent when a document closes (this one's, or the last run's)
    assert all(not p.diagnostics for p in seen.published if p.uri == uri and p.version is None)
    mine = [p for p in seen.published if p.uri == uri and p.version is not None]
    seen.published.clear()
    differ = []
    try:
        for p in mine:
            got, want = _server_rows(p, uri), _cli_rows(path, _held(texts[p.version]), seen.encoding)
            if got != want:
                differ.append(f"version {p.version}: editor {set(got) - set(want)}, cllint check {set(want) - set(got)}")
    finally:
        path.write_bytes(original)
    print(f"{name} seed {seed}: {len(mine) - len(differ)} of {len(mine)} published versions equal 'cllint check'")
    assert not differ, "\n".join(differ[:3])
    # the first version, the last one and, between them, whichever the server published
    assert len(mine) >= 2 and {1, version} <= {p.version for p in mine}
