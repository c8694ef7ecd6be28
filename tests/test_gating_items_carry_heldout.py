"""Held out (issue 32, session 18): the gating family's head reads through matched items
equal a walk of the tree on edits the tune cases do not make."""

from __future__ import annotations

import random

from cllint.analysis.gating.builtin_library import builtin_heads
from cllint.analysis.gating.image_programs import image_program
from cllint.analysis.toplevel import items_of
from cllint.grammar import parse

MIXED = b"""float4 read_imagef(read_only image2d_t i, sampler_t s, int2 c) { return (float4)(0.0f); }
kernel void k(read_only image2d_t in, global float4 *out) { out[0] = 0.0f; }
int helper(int v) { return v; }
kernel void j(read_only image3d_t vol) { }
"""


def _both(source: bytes, file: str):  # noqa: ANN202
    tree = parse(source)
    items = items_of(tree, source, file)
    dead = lambda at: False  # noqa: E731
    return (builtin_heads(tree.root_node, items), _fields(image_program(tree, source, None, dead, items=items))), \
        (builtin_heads(tree.root_node), _fields(image_program(tree, source, None, dead)))


def _fields(program):  # noqa: ANN001, ANN202 - ImageProgram has no equality of its own
    return None if program is None else (program.start, program.end, program.has_kernels, program.noted)


def test_a_definition_that_loses_its_body() -> None:
    _both(MIXED, "gating-heldout-1.cl")
    got, walked = _both(MIXED.replace(b"{ return (float4)(0.0f); }", b";"), "gating-heldout-1.cl")
    assert got == walked
    assert got[0] == []


def test_random_edits_equal_a_walk() -> None:
    rng = random.Random(18)
    text = MIXED
    for _ in range(150):
        at = rng.randrange(len(text) + 1)
        if rng.random() < 0.6:
            text = text[:at] + rng.choice([b"{", b"}", b";", b" ", b"kernel ", b"(", b"\n", b"image2d_t "]) + text[at:]
        else:
            text = text[:at] + text[at + rng.randrange(1, 5):]
        got, walked = _both(text, "gating-heldout-2.cl")
        assert got == walked, text
