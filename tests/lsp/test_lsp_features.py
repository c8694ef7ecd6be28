"""Hover, completion, signature help, symbols, navigation, folding, tokens, configuration."""

from __future__ import annotations

import pytest
from lsprotocol import types

from conftest import open_doc, pull

pytestmark = [pytest.mark.slow, pytest.mark.asyncio(loop_scope="module")]
URI = "file:///tmp/cllint-lsp-test/features.cl"
SRC = """#define TILE 16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
struct Pair { float a; float b; };
float sq(float v) { return v * v; }
kernel void scale(global float *out, local float *tmp) {
    int i = get_global_id(0);
    float4 v = (float4)(1.0f);
    tmp[i] = sq(out[i]) * TILE;
    out[i] = tmp[i] + v.x;
}
"""
TD = types.TextDocumentIdentifier(URI)


def at(line: int, col: int) -> types.Position:
    return types.Position(line, col)


async def test_hover_builtin_local_and_macro(client):
    open_doc(client, SRC, URI)
    h = await client.text_document_hover_async(types.HoverParams(TD, at(5, 14)))
    assert "size_t get_global_id(uint dimindx)" in h.contents.value and "work-item-functions" in h.contents.value
    h = await client.text_document_hover_async(types.HoverParams(TD, at(7, 4)))
    assert "local float *tmp" in h.contents.value
    h = await client.text_document_hover_async(types.HoverParams(TD, at(7, 27)))
    assert "#define TILE 16" in h.contents.value


async def test_completion_contexts(client):
    open_doc(client, SRC + "void f() { get_glo }\n#pragma OPENCL EXTENSION cl_khr_\n#ifdef __opencl_c_\n", URI)
    items = (await client.text_document_completion_async(types.CompletionParams(TD, at(10, 18)))).items
    item = next(i for i in items if i.label == "get_global_id")
    assert item.insert_text == "get_global_id(${1:dimindx})" and item.detail.startswith("size_t")
    items = (await client.text_document_completion_async(types.CompletionParams(TD, at(11, 32)))).items
    assert "cl_khr_fp64" in [i.label for i in items]
    items = (await client.text_document_completion_async(types.CompletionParams(TD, at(12, 18)))).items
    assert all(i.label.startswith("__opencl_c_") for i in items) and items
    items = (await client.text_document_completion_async(types.CompletionParams(TD, at(8, 24)))).items
    assert {"x", "y", "z", "w"} <= {i.label for i in items}  # v. -> swizzles


async def test_signature_help_counts_commas(client):
    open_doc(client, SRC + "void g() { mad(1.0f, 2.0f, }\n", URI)
    sh = await client.text_document_signature_help_async(types.SignatureHelpParams(TD, at(10, 27)))
    assert sh.active_parameter == 2 and "mad(" in sh.signatures[0].label


async def test_symbols_definition_references_folding_tokens(client):
    open_doc(client, SRC, URI)
    syms = await client.text_document_document_symbol_async(types.DocumentSymbolParams(TD))
    assert [s.name for s in syms] == ["TILE", "Pair", "sq", "scale"]
    loc = await client.text_document_definition_async(types.DefinitionParams(TD, at(7, 14)))
    assert loc.range.start == at(3, 6)
    refs = await client.text_document_references_async(types.ReferenceParams(
        text_document=TD, position=at(4, 33), context=types.ReferenceContext(include_declaration=True)))
    assert sorted(r.range.start.line for r in refs) == [4, 7, 8]
    folds = await client.text_document_folding_range_async(types.FoldingRangeParams(TD))
    assert any(f.start_line == 4 and f.end_line == 9 for f in folds)
    toks = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(TD))
    assert toks.data and len(toks.data) % 5 == 0


async def test_did_change_configuration_selects_rules(client):
    open_doc(client, "kernel void k(global float *a) {\n    a[0] = 1.0f\n}\n", URI)
    assert [d.code for d in (await pull(client, URI)).items] == ["CL001"]
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"ignore": ["CL001"], "std": "CL3.0"}}))
    assert list((await pull(client, URI)).items) == []
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(settings={"cllint": {}}))
    assert [d.code for d in (await pull(client, URI)).items] == ["CL001"]
