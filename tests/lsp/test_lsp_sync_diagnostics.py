"""Document sync and diagnostics over a real stdio connection."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from conftest import URI, change, open_doc, published, pull

pytestmark = pytest.mark.slow
GOOD = "kernel void k(global float *a) {\n    a[0] = 1.0f;\n}\n"


@pytest.mark.asyncio(loop_scope="module")
async def test_edit_introduces_and_fixes_syntax_error(client):
    waiter = asyncio.ensure_future(published(client, 1))
    open_doc(client, GOOD)
    assert list((await waiter).diagnostics) == []
    waiter = asyncio.ensure_future(published(client, 2))
    change(client, 2, (1, 15), (1, 16), "")  # delete ';'
    diags = (await waiter).diagnostics
    assert [d.code for d in diags] == ["CL001"]
    d = diags[0]
    assert d.code_description.href.endswith("/docs/rules/CL001.md")
    assert d.source == "cllint"
    report = await pull(client)
    # a version with errors is read from a fresh parse at once: no later "settled" result
    assert report.result_id == f"{URI}@2" and [x.code for x in report.items] == ["CL001"]
    unchanged = await pull(client, previous=report.result_id)
    assert unchanged.kind == "unchanged"
    change(client, 3, (1, 15), (1, 15), ";")
    report = await pull(client, previous=report.result_id)
    assert report.result_id == f"{URI}@3" and list(report.items) == []


@pytest.mark.asyncio(loop_scope="module")
async def test_unused_suppression_is_tagged_unnecessary_with_suppress_action(client):
    text = "kernel void k(global float *a) {\n    a[0] = 1.0f; // cllint: ignore[CL001]\n}\n"
    open_doc(client, text)
    report = await pull(client)
    [d] = report.items
    assert d.code == "CL090" and list(d.tags) == [types.DiagnosticTag.Unnecessary]
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(URI), d.range, types.CodeActionContext(diagnostics=[d])))
    titles = [a.title for a in actions]
    assert "Suppress CL090 on this line" in titles
    edit = next(a for a in actions if a.title.startswith("Suppress")).edit.changes[URI][0]
    assert edit.new_text == ", CL090"


@pytest.mark.asyncio(loop_scope="module")
async def test_suppress_action_appends_comment(client):
    open_doc(client, "kernel void k(global float *a) {\n    a[0] = 1.0f\n}\n")
    [d] = (await pull(client)).items
    actions = await client.text_document_code_action_async(types.CodeActionParams(
        types.TextDocumentIdentifier(URI), d.range, types.CodeActionContext(diagnostics=[d])))
    edit = next(a for a in actions if a.title == "Suppress CL001 on this line").edit.changes[URI][0]
    assert edit.new_text == "  // cllint: ignore[CL001]" and edit.range.start.line == 1
