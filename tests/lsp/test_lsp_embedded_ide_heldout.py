"""Held-out cases for IDE features inside embedded kernels (written with the tune cases of
test_lsp_embedded_ide.py, not run while the mapping was being written): escapes in an ordinary
string, a name bound to a literal, the `# cllint: opencl` marker, a ReductionKernel snippet."""

from __future__ import annotations

import asyncio

import pytest
from lsprotocol import types

from conftest import open_doc, published
from test_lsp_embedded_ide import at, hover, rng, span, tokens

pytestmark = pytest.mark.slow
URI = "file:///tmp/cllint-lsp-ide-heldout/app.py"
PY = '''import pyopencl as cl
from pyopencl.reduction import ReductionKernel

SRC = "__kernel void k(__global int *o) {\\n\\tint v = get_local_id(0);\\n\\to[v] = v; }"
prg = cl.Program(ctx, SRC).build()
# cllint: opencl
HELPER = """int clampi(int x) { return clamp(x, 0, 9); }"""
red = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="fabs(x[i])",
                      arguments="__global float *x")
'''


@pytest.mark.asyncio(loop_scope="module")
async def test_heldout_embedded_ide(client):
    waiter = asyncio.ensure_future(published(client, 1, URI))
    open_doc(client, PY, URI)
    await waiter
    doc = types.TextDocumentIdentifier(URI)
    # after the escapes '\\n\\t' of an ordinary string, columns are still the host's
    h = await hover(client, URI, at(PY, 3, "get_local_id", 4))
    assert h is not None and "get_local_id" in h.contents.value
    assert rng(h.range) == span(PY, 3, "get_local_id")
    h = await hover(client, URI, at(PY, 3, "v] = v"))
    assert h is not None and "int" in h.contents.value and rng(h.range) == span(PY, 3, "v] = v")[:3] + (
        span(PY, 3, "v] = v")[1] + 1,)
    # on the escape itself: nothing to say, and no error
    assert await hover(client, URI, at(PY, 3, "\\n\\t", 1)) is None
    # the marked literal, and its builtin call
    res = await client.text_document_signature_help_async(types.SignatureHelpParams(doc, at(PY, 6, "(x, 0", 1)))
    assert res is not None and any("clamp" in s.label for s in res.signatures)
    # a ReductionKernel map expression
    h = await hover(client, URI, at(PY, 7, "fabs", 2))
    assert h is not None and "fabs" in h.contents.value and rng(h.range) == span(PY, 7, "fabs")
    # semantic tokens: every one inside a string of lines 3, 6, 7 and 8
    toks = tokens((await client.text_document_semantic_tokens_full_async(types.SemanticTokensParams(doc))).data)
    assert toks and {t[0] for t in toks} <= {3, 6, 7, 8}, toks
    # outside: the Python names
    assert await hover(client, URI, at(PY, 4, "SRC")) is None
    assert await client.text_document_completion_async(types.CompletionParams(doc, at(PY, 7, "neutral", 3))) is None
