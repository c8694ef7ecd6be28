"""CL012's quick fix defines the macro in the project's configuration, through a real client:
the action's edit, applied as the editor would, makes the report go away."""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types

from cllint.server.define_action import define_edit
from conftest import open_doc, pull

pytestmark = pytest.mark.slow
KERNEL = "kernel void k(global float *a) {\n    a[0] = BLOCK_SIZE * 2.0f;\n}\n"


def apply(edit: types.WorkspaceEdit) -> None:
    """What an editor does with the edit: create the file, insert the text."""
    for uri, edits in (edit.changes or {}).items():
        path = Path(uri.removeprefix("file://"))
        lines = path.read_text().split("\n")
        for e in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
            line = lines[e.range.start.line] if e.range.start.line < len(lines) else ""
            merged = line[:e.range.start.character] + e.new_text + line[e.range.start.character:]
            lines[e.range.start.line:e.range.start.line + 1] = merged.split("\n")
        path.write_text("\n".join(lines))
    for change in edit.document_changes or ():
        if isinstance(change, types.CreateFile):
            Path(change.uri.removeprefix("file://")).touch()
        elif isinstance(change, types.TextDocumentEdit):
            path = Path(change.text_document.uri.removeprefix("file://"))
            path.write_text("".join(e.new_text for e in change.edits) + path.read_text())


@pytest.mark.asyncio(loop_scope="module")
@pytest.mark.parametrize("config", [None, "# settings\ntarget = \"CL1.2\"\n"])
async def test_define_action_makes_the_report_go_away(client, tmp_path: Path, config: str | None):
    if config is not None:
        (tmp_path / ".cllint.toml").write_text(config)
    uri = (tmp_path / "k.cl").as_uri()
    (tmp_path / "k.cl").write_text(KERNEL)
    open_doc(client, KERNEL, uri=uri)
    [d] = (await pull(client, uri)).items
    assert d.code == "CL012"
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(uri), d.range, types.CodeActionContext(diagnostics=[d])))
    [define] = [a for a in actions if a.title.startswith("Define 'BLOCK_SIZE'")]
    assert ".cllint.toml" in define.title and not define.is_preferred
    apply(define.edit)
    assert 'define = ["BLOCK_SIZE"]' in (tmp_path / ".cllint.toml").read_text()
    # the configuration changed on disk: the editor says so, then the file reads clean
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        [types.FileEvent((tmp_path / ".cllint.toml").as_uri(), types.FileChangeType.Changed)]))
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        [types.TextDocumentContentChangeWholeDocument(text=KERNEL)]))
    assert [x.code for x in (await pull(client, uri)).items] == []


@pytest.mark.parametrize("text, expected", [
    ('define = ["A=1"]\n', 'define = ["B", "A=1"]\n'),
    ('define = []\n', 'define = ["B"]\n'),
    ('define = [\n  "A",\n]\n', 'define = ["B", \n  "A",\n]\n'),
    ('ignore = ["CL301"]\n\n[[program]]\nsources = ["a.cl"]\n', 'define = ["B"]\nignore = ["CL301"]\n\n[[program]]\nsources = ["a.cl"]\n'),
])
def test_the_define_array_gains_the_name(tmp_path: Path, text: str, expected: str) -> None:
    config = tmp_path / ".cllint.toml"
    config.write_text(text)
    apply(define_edit(config, tmp_path, "B"))
    assert config.read_text() == expected
    import tomllib

    assert "B" in tomllib.loads(config.read_text())["define"]


def test_pyproject_gets_it_under_its_table(tmp_path: Path) -> None:
    config = tmp_path / "pyproject.toml"
    config.write_text('[project]\nname = "x"\n\n[tool.cllint]\nselect = ["CL0"]\n\n[tool.other]\ndefine = 1\n')
    apply(define_edit(config, tmp_path, "B"))
    import tomllib

    data = tomllib.loads(config.read_text())
    assert data["tool"]["cllint"]["define"] == ["B"] and data["tool"]["other"]["define"] == 1
