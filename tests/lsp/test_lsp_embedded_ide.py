"""Hover, completion, signature help, definition and semantic tokens inside kernels embedded
in host code (issue 20, step 3): answered as in a .cl file, in host coordinates, and nothing
outside the strings (the user's Python or C++ server keeps those). Tune cases; the held-out
ones are in test_lsp_embedded_ide_heldout.py."""

from __future__ import annotations

import asyncio

import pytest
import pytest_asyncio
from lsprotocol import types

from conftest import change, open_doc, published

pytestmark = pytest.mark.slow
PY_URI = "file:///tmp/cllint-lsp-ide/app.py"
CPP_URI = "file:///tmp/cllint-lsp-ide/host.cpp"
PY = '''import pyopencl as cl
from pyopencl.elementwise import ElementwiseKernel

prg = cl.Program(ctx, """
float twice(float x) { return 2.0f * x; }
__kernel void scale(__global float *a, float s) {
    int gid = get_global_id(0);
    a[gid] = twice(a[gid]) * s;
}
""").build()
knl = ElementwiseKernel(ctx, "float *x, float a", "x[i] = fabs(x[i]) * a", "absmul")
'''
CPP = '''#include <CL/cl.h>
const char *src = R"CLC(
int helper(int v) { return v + 1; }
kernel void k(global int *o) { o[get_global_id(0)] = helper(3); }
)CLC";
void f(cl_context c) { clCreateProgramWithSource(c, 1, &src, 0, 0); }
'''


def at(text: str, line: int, needle: str, plus: int = 0) -> types.Position:
    return types.Position(line, text.splitlines()[line].index(needle) + plus)


def span(text: str, line: int, needle: str) -> tuple[int, int, int, int]:
    col = text.splitlines()[line].index(needle)
    return line, col, line, col + len(needle)


def rng(r: types.Range) -> tuple[int, int, int, int]:
    return r.start.line, r.start.character, r.end.line, r.end.character


def tokens(data: list[int]) -> list[tuple[int, int, int]]:
    """(line, start, length) of each semantic token."""
    out, line, col = [], 0, 0
    for i in range(0, len(data), 5):
        dl, dc, length = data[i:i + 3]
        line, col = line + dl, (col + dc if dl == 0 else dc)
        out.append((line, col, length))
    return out


async def hover(client, uri: str, pos: types.Position) -> types.Hover | None:
    return await client.text_document_hover_async(types.HoverParams(types.TextDocumentIdentifier(uri), pos))


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def python_doc(client):
    waiter = asyncio.ensure_future(published(client, 1, PY_URI))
    open_doc(client, PY, PY_URI)
    await waiter
    return PY_URI


@pytest.mark.asyncio(loop_scope="module")
async def test_hover_on_builtin_and_local(client, python_doc):
    h = await hover(client, python_doc, at(PY, 6, "get_global_id", 3))
    assert h is not None and "get_global_id" in h.contents.value
    assert rng(h.range) == span(PY, 6, "get_global_id")
    h = await hover(client, python_doc, at(PY, 7, "gid", 1))
    assert h is not None and "int" in h.contents.value
    assert rng(h.range) == span(PY, 7, "gid")


@pytest.mark.asyncio(loop_scope="module")
async def test_completion_after_prefix(client, python_doc):
    res = await client.text_document_completion_async(types.CompletionParams(
        types.TextDocumentIdentifier(python_doc), at(PY, 6, "get_global_id", len("get_glo"))))
    labels = {i.label for i in res.items}
    assert "get_global_id" in labels and "get_global_size" in labels


@pytest.mark.asyncio(loop_scope="module")
async def test_signature_help_in_builtin_call(client, python_doc):
    res = await client.text_document_signature_help_async(types.SignatureHelpParams(
        types.TextDocumentIdentifier(python_doc), at(PY, 6, "(0)", 1)))
    assert res is not None and any("get_global_id" in s.label for s in res.signatures)


@pytest.mark.asyncio(loop_scope="module")
async def test_definition_of_helper_in_same_string(client, python_doc):
    res = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(python_doc), at(PY, 7, "twice", 2)))
    loc = res[0] if isinstance(res, list) else res
    assert loc.uri == python_doc
    assert rng(loc.range) == span(PY, 4, "twice")


@pytest.mark.asyncio(loop_scope="module")
async def test_semantic_tokens_in_host_coordinates(client, python_doc):
    res = await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        types.TextDocumentIdentifier(python_doc)))
    toks = tokens(res.data)
    line, col, _, end = span(PY, 6, "get_global_id")
    assert (line, col, end - col) in toks
    line, col, _, end = span(PY, 10, "fabs")
    assert (line, col, end - col) in toks
    # only inside the strings: the kernel lines 4-8 and the snippets of line 10
    first_snippet = PY.splitlines()[10].index('"float')
    assert all(4 <= t[0] <= 8 or (t[0] == 10 and t[1] > first_snippet) for t in toks), toks


@pytest.mark.asyncio(loop_scope="module")
async def test_elementwise_snippet(client, python_doc):
    h = await hover(client, python_doc, at(PY, 10, "fabs", 1))
    assert h is not None and "fabs" in h.contents.value
    assert rng(h.range) == span(PY, 10, "fabs")
    h = await hover(client, python_doc, at(PY, 10, "x[i] =", 0))
    assert h is not None and "float" in h.contents.value
    assert rng(h.range) == span(PY, 10, "x[i] =")[:3] + (span(PY, 10, "x[i] =")[1] + 1,)


@pytest.mark.asyncio(loop_scope="module")
async def test_nothing_outside_the_strings(client, python_doc):
    doc = types.TextDocumentIdentifier(python_doc)
    for pos in (at(PY, 3, "prg"), at(PY, 3, "Program", 2), at(PY, 3, '"""'), at(PY, 9, ".build", 2),
                at(PY, 10, "absmul", 2), at(PY, 0, "pyopencl")):
        assert await hover(client, python_doc, pos) is None, pos
        assert await client.text_document_completion_async(types.CompletionParams(doc, pos)) is None, pos
        assert await client.text_document_signature_help_async(types.SignatureHelpParams(doc, pos)) is None, pos
        assert await client.text_document_definition_async(types.DefinitionParams(doc, pos)) is None, pos


@pytest.mark.asyncio(loop_scope="module")
async def test_incremental_edit_inside_the_string(client, python_doc):
    # a new line inside the kernel body shifts everything below it
    waiter = asyncio.ensure_future(published(client, 2, python_doc))
    change(client, 2, (7, 0), (7, 0), "    float extra = s;\n", python_doc)
    await waiter
    edited = PY.splitlines()
    edited.insert(7, "    float extra = s;")
    text = "\n".join(edited) + "\n"
    h = await hover(client, python_doc, at(text, 7, "extra", 1))
    assert h is not None and "float" in h.contents.value
    assert rng(h.range) == span(text, 7, "extra")
    res = await client.text_document_definition_async(types.DefinitionParams(
        types.TextDocumentIdentifier(python_doc), at(text, 8, "twice", 1)))
    loc = res[0] if isinstance(res, list) else res
    assert rng(loc.range) == span(text, 4, "twice")
    h = await hover(client, python_doc, at(text, 11, "fabs", 1))
    assert h is not None and rng(h.range) == span(text, 11, "fabs")


@pytest.mark.asyncio(loop_scope="module")
async def test_cpp_raw_string_with_embedded_cpp(client):
    open_doc(client, CPP, CPP_URI)
    doc = types.TextDocumentIdentifier(CPP_URI)
    pos = at(CPP, 3, "get_global_id", 2)
    assert await hover(client, CPP_URI, pos) is None  # off by default
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedCpp": True}}))
    for _ in range(50):
        h = await hover(client, CPP_URI, pos)
        if h is not None:
            break
        await asyncio.sleep(0.1)
    assert h is not None and "get_global_id" in h.contents.value
    assert rng(h.range) == span(CPP, 3, "get_global_id")
    res = await client.text_document_definition_async(types.DefinitionParams(doc, at(CPP, 3, "helper(3)", 1)))
    loc = res[0] if isinstance(res, list) else res
    assert loc.uri == CPP_URI and rng(loc.range) == span(CPP, 2, "helper")
    h = await hover(client, CPP_URI, at(CPP, 2, "v + 1"))
    assert h is not None and "int" in h.contents.value and rng(h.range)[1] == CPP.splitlines()[2].index("v + 1")
    res = await client.text_document_completion_async(types.CompletionParams(
        doc, at(CPP, 3, "get_global_id", len("get_glob"))))
    assert "get_global_id" in {i.label for i in res.items}
    res = await client.text_document_signature_help_async(types.SignatureHelpParams(doc, at(CPP, 3, "(0)", 1)))
    assert res is not None and any("get_global_id" in s.label for s in res.signatures)
    toks = tokens((await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(doc))).data)
    line, col, _, end = span(CPP, 3, "get_global_id")
    assert (line, col, end - col) in toks and {t[0] for t in toks} <= {2, 3}, toks
    assert await hover(client, CPP_URI, at(CPP, 5, "clCreateProgramWithSource", 3)) is None
    assert await hover(client, CPP_URI, at(CPP, 1, "src")) is None
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedCpp": False}}))


@pytest.mark.asyncio(loop_scope="module")
async def test_embedded_python_off_answers_nothing(client, python_doc):
    pos = types.Position(5, PY.splitlines()[5].index("scale") + 1)
    assert await hover(client, python_doc, pos) is not None
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedPython": False}}))
    for _ in range(50):
        if (h := await hover(client, python_doc, pos)) is None:
            break
        await asyncio.sleep(0.1)
    assert h is None
    assert await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(
        types.TextDocumentIdentifier(python_doc))) is None
    client.workspace_did_change_configuration(types.DidChangeConfigurationParams(
        settings={"cllint": {"embeddedPython": True}}))
    for _ in range(50):
        if (h := await hover(client, python_doc, pos)) is not None:
            break
        await asyncio.sleep(0.1)
    assert h is not None and "scale" in h.contents.value
