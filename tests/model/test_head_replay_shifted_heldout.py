"""Held-out cases for `_Head.offsets` (written with tests/model/test_head_replay_shifted.py,
before the code): tags reached through arrays, pointers to pointers, a function's return,
a union, and whole-file diagnostics of a host typed into above an enum."""

from __future__ import annotations

from cllint.analysis.database import current
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import _HEADS_MAX
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL2.0")

SOURCE = b"""void first(global int *o) { o[0] = 1; }
union u { int i; float f; };
enum level { LOW, HIGH };
typedef struct { float v[4]; } quad_t;
enum level pick(int x) { return x ? HIGH : LOW; }
void deep(global quad_t **pp, int n) { }
void unions(union u arr[4], int n) { }
int untagged(int a, int b) { return a + b; }
kernel void k(global float *o) { o[0] = pick(1); }
"""
EDITED = SOURCE.replace(b"o[0] = 1;", b"int z = 3; o[0] = z;")


def _facts(src: bytes, replay: bool) -> dict[str, tuple]:
    view = build_view("f.cl", src, target=TARGET)
    model = SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                          macro_state=view.macro_state_at if replay else None)
    return {name: (repr(info.type), [(p.name, repr(p.type)) for p in info.params])
            for name, info in model.functions.items()}


def test_tags_under_arrays_pointers_and_returns_equal_a_fresh_reading() -> None:
    current().table("model.heads", _HEADS_MAX).clear()
    before = _facts(SOURCE, replay=True)
    after = _facts(EDITED, replay=True)
    assert after == _facts(EDITED, replay=False)
    for name in ("pick", "deep", "unions"):
        assert after[name] != before[name], name  # each names a tag that moved
    assert after["untagged"] == before["untagged"]


STRUCTS = b"""kernel void a(global float *o) { o[0] = 1.0f; }
typedef struct { global float *p; int n; } span_t;
kernel void b(span_t s, global float *o) { o[0] = s.p[0] + s.q; }
kernel void c(global float *o, int n) { o[n] = 2.0f; }
"""


def test_a_host_typed_into_above_a_struct_publishes_what_a_fresh_lint_does() -> None:
    host = Host()
    host.set_file("k.cl", STRUCTS)
    host.snapshot().diagnostics("k.cl")
    at = STRUCTS.index(b"o[0] = 1.0f;")
    text = STRUCTS
    for i, ch in enumerate(b"float t = 0.5f; "):
        edit = bytes([ch])
        host.apply_change(Change(edits={"k.cl": [TextEdit(at + i, at + i, edit)]}))
        text = text[:at + i] + edit + text[at + i:]
        got = host.snapshot().diagnostics("k.cl")
        fresh = Host()
        fresh.set_file("k.cl", text)
        want = fresh.snapshot().diagnostics("k.cl")
        assert [(d.code, d.span, d.message, d.notes) for d in got] == \
            [(d.code, d.span, d.message, d.notes) for d in want]
    assert any(d.code == "CL104" or "q" in d.message for d in got)
