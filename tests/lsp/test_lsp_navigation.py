"""Semantic hover, inlay hints, inactive regions, declaration, rename, workspace symbols and
navigation across #included files, over a real LSP connection."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException

from cllint.server.features import TOKEN_MODIFIERS, TOKEN_TYPES
from conftest import open_doc

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]
URI = "file:///tmp/cllint-lsp-test/nav.cl"
TD = types.TextDocumentIdentifier(URI)
SRC = """#define SCALE 2.0f
#define TWICE SCALE * 2
float helper(float *p);
kernel void k(global float *out) {
    float acc = out[0] * TWICE;
    out[0] = helper(&acc);
}
float helper(float *p) { return p[0]; }
"""


def at(line: int, col: int) -> types.Position:
    return types.Position(line, col)


async def test_hover_type_with_address_space_and_macro_expansion(client):
    open_doc(client, SRC, URI)
    h = await client.text_document_hover_async(types.HoverParams(TD, at(7, 32)))
    assert "`float *` — points to `__private` (inferred: OpenCL C 1.2)" in h.contents.value
    h = await client.text_document_hover_async(types.HoverParams(TD, at(3, 28)))
    assert "`__global float *` — points to `__global`" in h.contents.value
    h = await client.text_document_hover_async(types.HoverParams(TD, at(4, 26)))
    assert "#define TWICE SCALE * 2" in h.contents.value and "Expands to: `2.0f * 2`" in h.contents.value


async def test_inlay_hints_show_inferred_space(client):
    open_doc(client, SRC, URI)
    hints = await client.text_document_inlay_hint_async(types.InlayHintParams(
        text_document=TD, range=types.Range(at(0, 0), at(8, 0))))
    assert [(h.position.line, h.label) for h in hints] == [(7, "__private")]
    assert hints[0].position == at(7, 21) and hints[0].padding_left


async def test_inactive_region_is_a_dimmed_token_and_folds(client):
    uri = "file:///tmp/cllint-lsp-test/inactive.cl"
    open_doc(client, "#if __OPENCL_C_VERSION__ >= 200\nint a;\nint b;\n#endif\nkernel void k() {}\n", uri)
    toks = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(types.TextDocumentIdentifier(uri)))
    types_, mods = TOKEN_TYPES, TOKEN_MODIFIERS
    quads = [list(toks.data[i:i + 5]) for i in range(0, len(toks.data), 5)]
    assert quads[:2] == [[1, 0, 6, types_.index("comment"), 1 << mods.index("inactive")],
                         [1, 0, 6, types_.index("comment"), 1 << mods.index("inactive")]]
    folds = await client.text_document_folding_range_async(
        types.FoldingRangeParams(types.TextDocumentIdentifier(uri)))
    assert any(f.start_line == 1 and f.end_line == 2 for f in folds)


async def test_declaration_goes_to_the_prototype(client):
    open_doc(client, SRC, URI)
    loc = await client.text_document_declaration_async(types.DeclarationParams(TD, at(5, 15)))
    assert loc.range.start == at(2, 6)
    loc = await client.text_document_definition_async(types.DefinitionParams(TD, at(5, 15)))
    assert loc.range.start == at(7, 6)


async def test_rename_and_prepare_rename(client):
    open_doc(client, SRC, URI)
    prep = await client.text_document_prepare_rename_async(types.PrepareRenameParams(TD, at(4, 10)))
    assert prep.placeholder == "acc" and prep.range.start == at(4, 10)
    edit = await client.text_document_rename_async(types.RenameParams(TD, at(4, 10), "total"))
    assert sorted((e.range.start.line, e.range.start.character) for e in edit.changes[URI]) == [(4, 10), (5, 21)]
    assert await client.text_document_prepare_rename_async(types.PrepareRenameParams(TD, at(4, 17))) is not None
    with pytest.raises(JsonRpcException):
        await client.text_document_rename_async(types.RenameParams(TD, at(4, 10), "kernel"))


async def test_workspace_symbols_over_open_documents(client):
    open_doc(client, SRC, URI)
    open_doc(client, "kernel void transpose(global float *a) {}\n", "file:///tmp/cllint-lsp-test/t.cl")
    syms = await client.workspace_symbol_async(types.WorkspaceSymbolParams(query="tr"))
    assert [(s.name, s.location.uri) for s in syms][:1] == [("transpose", "file:///tmp/cllint-lsp-test/t.cl")]
    names = {s.name for s in await client.workspace_symbol_async(types.WorkspaceSymbolParams(query=""))}
    assert {"SCALE", "TWICE", "k", "helper", "transpose"} <= names


async def test_definition_references_and_rename_across_an_include(client, tmp_path):
    header = tmp_path / "common.h"
    header.write_text("#define WIDTH 64\nfloat twice(float x) { return 2.0f * x; }\n")
    main_uri = (tmp_path / "main.cl").as_uri()
    td = types.TextDocumentIdentifier(main_uri)
    open_doc(client, '#include "common.h"\nkernel void k(global float *o) { o[0] = twice(WIDTH); }\n', main_uri)
    loc = await client.text_document_definition_async(types.DefinitionParams(td, at(1, 42)))
    assert loc.uri == header.as_uri() and loc.range.start == at(1, 6)
    loc = await client.text_document_definition_async(types.DefinitionParams(td, at(1, 49)))
    assert loc.uri == header.as_uri() and loc.range.start == at(0, 8)
    h = await client.text_document_hover_async(types.HoverParams(td, at(1, 49)))
    assert "#define WIDTH 64" in h.contents.value
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=td, position=at(1, 42), context=types.ReferenceContext(include_declaration=True)))
    assert sorted((r.uri == main_uri, r.range.start.line) for r in refs) == [(False, 1), (True, 1)]
    edit = await client.text_document_rename_async(types.RenameParams(td, at(1, 42), "doubled"))
    assert set(edit.changes) == {main_uri, header.as_uri()}
