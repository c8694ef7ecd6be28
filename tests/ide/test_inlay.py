"""inlay_hints: inferred address spaces of unqualified pointers, by target version."""

import pytest

from cllint.analysis.ide.inlay import inlay_hints
from ide_fixtures import FILE, snapshot

SRC = """kernel void k(global float *out, float *bad) {
    float *p = out;
    global float *q = out;
    float x = 0;
}
float f(float *a, local int *b, const float *c) { return a[0]; }
"""


def labels(src: str, std: str) -> list[tuple[str, str]]:
    snap, _ = snapshot(src, std)
    data = src.encode()
    out = []
    for h in inlay_hints(snap, FILE):
        name_start = data.rfind(b" ", 0, h.offset) + 1
        out.append((data[name_start:h.offset].decode().lstrip("*"), h.label))
    return out


@pytest.mark.parametrize("std, space", [("CL1.2", "__private"), ("CL2.0", "__generic"), ("CL3.0", "__private"),
                                        ("CL3.0-all", "__generic")])
def test_unqualified_pointers_get_the_target_space(std, space):
    assert labels(SRC, std) == [("p", space), ("a", space), ("c", space)]


def test_tooltip_says_why_and_range_filters():
    snap, _ = snapshot(SRC, "CL2.0")
    hints = inlay_hints(snap, FILE)
    assert "(inferred: OpenCL C 2.0)" in hints[0].tooltip and "`float *`" in hints[0].tooltip
    assert [h.label for h in inlay_hints(snap, FILE, SRC.index("float f"))] == ["__generic"] * 2
