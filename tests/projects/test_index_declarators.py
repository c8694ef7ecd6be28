"""The index's reading of names in a declarator's place (project/index.py `_declared`: locals and
parameters, which never make a file a fragment of a source defining a global of that name). A
product (`y = a * WIDTH;`, `p[i + x * WIDTH]`) declares nothing: `WIDTH` stays a use, so the
sibling defining it is found. Cases written before the change; HELD_OUT scored once after it."""
from __future__ import annotations

import pytest

from cllint.project.index import _declared

# (code, a name, whether it is declared there)
TUNE = [
    ("void f(global float *out, int n) { }", "out", True),
    ("void f(global float *out, int n) { }", "n", True),
    ("float *p = q;", "p", True),
    ("y = a * WIDTH;", "WIDTH", False),
    ("v = base + x * STRIDE, w = 0;", "STRIDE", False),
    ("if (k < n * BLOCK) return;", "BLOCK", False),
]
HELD_OUT = [
    ("const uint *row = data + g;", "row", True),
    ("s += t * SCALE;", "SCALE", False),
    ("return idx * PITCH;", "PITCH", False),
]


@pytest.mark.parametrize("code,name,declared", TUNE + HELD_OUT,
                         ids=[f"{'heldout' if c in HELD_OUT else 'tune'}-{c[1]}" for c in TUNE + HELD_OUT])
def test_declared(code: str, name: str, declared: bool) -> None:
    assert (name in _declared(code)) == declared
