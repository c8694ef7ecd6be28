"""The semantic family (CL010-CL049) through a real stdio connection: published and pulled,
with notes as related information, and kept right across edits inside a body."""

from __future__ import annotations

import asyncio

import pytest

from conftest import change, open_doc, published, pull

pytestmark = pytest.mark.slow
URI = "file:///tmp/cllint-lsp-test/semantic.cl"
TEXT = ("float scale(float x, float s) { return x * s; }\n"
        "kernel void k(global float *a) {\n"
        "    float total = a[0];\n"
        "    a[1] = scale(totl, 2.0f);\n"
        "}\n")


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_errors_published_and_fixed_by_edits(client):
    waiter = asyncio.ensure_future(published(client, 1, URI))
    open_doc(client, TEXT, URI)
    diags = (await waiter).diagnostics
    assert [(d.code, d.range.start.line, d.range.start.character) for d in diags] == [("CL010", 3, 17)]
    d = diags[0]
    assert d.message == "use of undeclared identifier 'totl'; did you mean 'total'?"
    assert d.code_description.href.endswith("/docs/rules/CL010.md")
    assert [r.message for r in d.related_information] == ["'total' declared here"]
    # fix the typo, then drop an argument: the edit inside the body is re-analysed
    waiter = asyncio.ensure_future(published(client, 2, URI))
    change(client, 2, (3, 17), (3, 21), "total", uri=URI)
    assert list((await waiter).diagnostics) == []
    waiter = asyncio.ensure_future(published(client, 3, URI))
    change(client, 3, (3, 22), (3, 28), "", uri=URI)
    diags = (await waiter).diagnostics
    assert [d.code for d in diags] == ["CL013"]
    report = await pull(client, URI)
    assert [x.code for x in report.items] == ["CL013"]
