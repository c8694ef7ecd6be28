"""The gating family's file-wide reads of function heads (built-in library heads, the image
program's kernels) through the file's matched items (toplevel.items_of): what an item carried
over from the previous tree says is kept, and the answers equal a walk of the tree (issue 32,
session 18)."""

from __future__ import annotations

from cllint.analysis.gating.builtin_library import builtin_heads
from cllint.analysis.gating.image_programs import image_program
from cllint.analysis.toplevel import items_of
from cllint.grammar import parse

LIBRARY = b"""int get_image_width(image2d_t image) { return 0; }

float helper(float x) { return x * 2.0f; }

#ifdef cl_khr_fp64
double sqrt(double x) { return x; }
#endif
"""

IMAGES = b"""kernel void first(read_only image2d_t in, global float *out) { out[0] = 1.0f; }

float helper(float x) { return x; }

kernel void second(write_only image2d_t out) { }
"""


def _heads(source: bytes, file: str):  # noqa: ANN202
    tree = parse(source)
    return builtin_heads(tree.root_node, items_of(tree, source, file)), builtin_heads(tree.root_node)


def _program(source: bytes, file: str):  # noqa: ANN202
    tree = parse(source)
    dead = lambda at: False  # noqa: E731
    return _fields(image_program(tree, source, None, dead, items=items_of(tree, source, file))), \
        _fields(image_program(tree, source, None, dead))


def _fields(program):  # noqa: ANN001, ANN202 - ImageProgram has no equality of its own
    return None if program is None else (program.start, program.end, program.has_kernels, program.noted)


def test_library_heads_after_an_edit_in_a_helper() -> None:
    first, walked = _heads(LIBRARY, "gating-items-1.cl")
    assert first == walked and [h[0] for h in first] == ["get_image_width", "sqrt"]
    after, walked = _heads(LIBRARY.replace(b"x * 2.0f", b"x * 20.0f"), "gating-items-1.cl")
    assert after == walked
    assert after[1][1] == first[1][1] + 1  # moved with its item


def test_image_program_after_edits_of_bodies_and_heads() -> None:
    got, walked = _program(IMAGES, "gating-items-2.cl")
    assert got == walked and got is not None and got[2]
    got, walked = _program(IMAGES.replace(b"out[0] = 1.0f;", b"out[0] = 2.5f;"), "gating-items-2.cl")
    assert got == walked and got is not None
    got, walked = _program(IMAGES.replace(b"write_only image2d_t out", b"global int *out"), "gating-items-2.cl")
    assert got is None and walked is None  # a kernel without an image: no program that needs them


def test_a_kernel_under_a_conditional_block() -> None:
    source = b"#ifdef USE_IMAGES\n" + IMAGES + b"#endif\n"
    got, walked = _program(source, "gating-items-3.cl")
    assert got == walked and got is not None
    edited = source.replace(b"return x;", b"return x + 1.0f;")
    got, walked = _program(edited, "gating-items-3.cl")
    assert got == walked and got is not None
