"""Held-out cases of test_image_program_carry.py (crc32 of the name % 3 == 0), written with
the tune cases before the code, first run after it (issue 32, session 20)."""

from __future__ import annotations

from test_image_program_carry import SOURCE, notes, typed


def test_define_typed_in_a_body_changes_the_program() -> None:
    got = typed(b"    return read_imagef(in, s, p);\n", b"#undef IMG\n#define IMG int\n")
    assert notes(got) == []  # kernel `a`, after the helper, reads `int in`: a kernel without images


def test_comment_hash_typed_in_a_body() -> None:
    got = typed(b"    out[0] = helper(in, (int2)(0, 0));", b" // #1 in order")
    assert len(notes(got)) == 1
    assert SOURCE  # the case's source is the module's
