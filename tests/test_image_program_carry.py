"""Whether every kernel of the file takes an image (the program's image note, CL301's premise)
carried from the last keystroke, each function's answers (compiled out, kernel, takes an
image) kept, while only one function's body changed and no directive did: a keystroke asked
every one of darktable's 67 heads again (~0.4 ms, issue 32, session 20). A typed host
publishes what a fresh host does at every keystroke. Written before the code; the held-out
third (crc32 % 3 == 0) is in test_image_program_carry_heldout.py."""

from __future__ import annotations

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.diagnostics import Severity

SOURCE = b"""#define IMG image2d_t
const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;

float4 helper(read_only IMG in, int2 p) {
    return read_imagef(in, s, p);
}

kernel void a(read_only IMG in, global float4 *out) {
    out[0] = helper(in, (int2)(0, 0));
}

kernel void b(read_only image2d_t in, write_only image2d_t out) {
    write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)));
}
"""


def _fresh(text: bytes) -> list:
    with Database().active():
        h = Host()
        h.set_file("k.cl", text)
        return h.snapshot().diagnostics("k.cl")


def _key(d) -> tuple:  # noqa: ANN001
    return (d.code, d.severity, d.span, d.message, d.notes)


def typed(at: bytes, text: bytes, delete: int = 0, source: bytes = SOURCE) -> list:
    """Deletes `delete` bytes after the first `at`, then types `text` there, one keystroke
    each; every version's diagnostics equal a fresh host's. The last version's."""
    host = Host()
    host.set_file("k.cl", source)
    host.snapshot().diagnostics("k.cl")
    pos = source.index(at) + len(at)
    src, got = source, []
    steps = [(pos, pos + 1, b"")] * delete + [(pos + i, pos + i, text[i:i + 1]) for i in range(len(text))]
    for s, e, ch in steps:
        host.apply_change(Change(edits={"k.cl": [TextEdit(s, e, ch)]}))
        src = src[:s] + ch + src[e:]
        got = host.snapshot().diagnostics("k.cl")
        assert [_key(d) for d in got] == [_key(d) for d in _fresh(src)], src.decode()
    return got


def notes(diags: list) -> list:
    return [d for d in diags if d.severity == Severity.INFO and "image" in d.message]


def test_typing_in_a_kernel_body_keeps_the_note() -> None:
    got = typed(b"    out[0] = helper(in, (int2)(0, 0));", b"\n    float4 t = (float4)(1.0f);")
    assert len(notes(got)) == 1


def test_typing_in_a_helper_body() -> None:
    got = typed(b"    return read_imagef(in, s, p)", b" * 2.0f")
    assert len(notes(got)) == 1


def test_if_zero_typed_around_a_kernel_body() -> None:
    got = typed(b"kernel void b(read_only image2d_t in, write_only image2d_t out) {\n", b"#if 0\n#endif\n")
    assert len(notes(got)) == 1


def test_image_param_deleted_from_a_head() -> None:
    source = SOURCE.replace(b"kernel void a(read_only IMG in, global float4 *out)",
                            b"kernel void a(global float4 *out, read_only IMG in)")
    got = typed(b"kernel void a(global float4 *out", b"", delete=len(b", read_only IMG in"), source=source)
    assert notes(got) == []  # kernel `a` takes no image now: the program is mixed


def test_typing_in_the_last_kernel() -> None:
    got = typed(b"write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)));", b"\n    int q = 1;")
    assert len(notes(got)) == 1


def test_note_moves_with_text_before_it() -> None:
    source = SOURCE.replace(b"kernel void a", b"kernel void z(global int *q) { q[0] = 1; }\n\nkernel void a")
    got = typed(b"kernel void z(global int *q) { q[0] = 1;", b" q[1] = 2;", source=source)
    assert notes(got) == []  # `z` takes no image: no program note, before or after the keystrokes
