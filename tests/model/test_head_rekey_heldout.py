"""Held out (issue 32, session 18): heads replayed with moved tags' new keys equal a reading
from scratch on edits the tune cases do not make."""

from __future__ import annotations

import random

from cllint.analysis.database import Database, current
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import _HEADS_MAX
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL1.2")

SOURCE = b"""typedef struct { int n; } before_t;
float first(float x) { return x + 1.0f; }
typedef union { float f; uint u; } bits_t;
enum colour { RED, GREEN };
float second(before_t b) { return (float)b.n; }
typedef struct node { struct node *next; bits_t bits; } node_t;
kernel void k(global node_t *nodes, bits_t b, enum colour c, global before_t *q) { nodes[0].bits = b; }
"""


def _facts(src: bytes) -> dict[str, tuple]:
    view = build_view("rekey-heldout.cl", src, target=TARGET)
    model = SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                          macro_state=view.macro_state_at)
    return {name: (repr(info.type), [(p.name, repr(p.type), p.node.start_byte if p.node else None)
                                     for p in info.params])
            for name, info in model.functions.items()}


def _fresh(src: bytes) -> dict[str, tuple]:
    with Database().active():
        return _facts(src)


def test_a_struct_added_above_the_heads() -> None:
    current().table("model.heads", _HEADS_MAX).clear()
    _facts(SOURCE)
    edited = SOURCE.replace(b"float first", b"struct extra { int z; };\nfloat first")
    assert _facts(edited) == _fresh(edited)


def test_random_edits_in_the_first_body() -> None:
    current().table("model.heads", _HEADS_MAX).clear()
    rng = random.Random(1818)
    text = SOURCE
    for _ in range(40):
        body = text.index(b"float first(float x) {") + len(b"float first(float x) {")  # (no brace is typed)
        end = text.index(b"}", body)
        at = rng.randrange(body, end + 1)
        if rng.random() < 0.7:
            text = text[:at] + rng.choice([b" ", b"x", b";", b"(", b"1.0f", b"\n"]) + text[at:]
        elif end - at > 1:
            text = text[:at] + text[at + 1:]
        assert _facts(text) == _fresh(text), text
