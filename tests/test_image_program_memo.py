"""Whether a function takes an image, kept per head (its text, its node count, the macros in
force and the host's macros) across keystrokes: a keystroke read every head of darktable's
basic.cl for its image parameters (~0.3 ms). Typed hosts must publish what a fresh lint
publishes, the program's image note included (issue 32)."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.diagnostics import Severity

SOURCE = b"""#define IMG image2d_t
const sampler_t s = CLK_NORMALIZED_COORDS_FALSE | CLK_FILTER_NEAREST;

kernel void a(read_only IMG in, global float4 *out) {
    out[0] = read_imagef(in, s, (int2)(0, 0));
}

kernel void b(read_only image2d_t in, write_only image2d_t out) {
    write_imagef(out, (int2)(0, 0), read_imagef(in, s, (int2)(0, 0)));
}
"""


def _typed(base: bytes, at: int, typed: bytes) -> list:
    host = Host()
    host.set_file("k.cl", base)
    host.snapshot().diagnostics("k.cl")
    text, got = base, []
    for i in range(len(typed)):
        ch = typed[i:i + 1]
        host.apply_change(Change(edits={"k.cl": [TextEdit(at + i, at + i, ch)]}))
        text = text[:at + i] + ch + text[at + i:]
        got = host.snapshot().diagnostics("k.cl")
        fresh = Host()
        fresh.set_file("k.cl", text)
        want = fresh.snapshot().diagnostics("k.cl")
        assert [(d.code, d.span, d.message) for d in got] == [(d.code, d.span, d.message) for d in want], text
    return got


def test_typing_into_an_image_program_keeps_its_note() -> None:
    at = SOURCE.index(b"    out[0] = read")
    got = _typed(SOURCE, at, b"float4 t = (float4)(1.0f);\n")
    assert any(d.severity == Severity.INFO and "image" in d.message for d in got)


def test_a_macro_made_a_non_image_reads_the_head_again() -> None:
    at = SOURCE.index(b"const sampler_t")
    got = _typed(SOURCE, at, b"#undef IMG\n#define IMG int\n")
    assert not any(d.severity == Severity.INFO and "program requires" in d.message for d in got)
