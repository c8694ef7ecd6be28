"""A head whose types name a file tag that a body edit above moved is replayed with the tags'
new keys (their new offsets), not read again (issue 32, session 18: darktable's `overexposed`
head, after an enum defined below the typing point, was read again on every keystroke: 0.45 ms
of ~10). The replayed head's tags are the index's own objects, and everything equals a
reading from scratch."""

from __future__ import annotations

from cllint.analysis.database import Database, current
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import _HEADS_MAX
from cllint.analysis.model.types import Enum_, Pointer, Struct
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL2.0")

SOURCE = b"""struct early { int a; };
float pad(float x) { return x; }
typedef enum mode_t { MODE_A, MODE_B } mode_t;
typedef struct { float4 v; } pix_t;
kernel void with_mode(mode_t m, global int *out) { out[0] = m; }
kernel void with_pix(global pix_t *p, struct early e, global struct early *q) { p[0].v = (float4)(e.a); }
"""

EDITED = SOURCE.replace(b"return x;", b"float y = x * 2.0f; return y;")


def _model(src: bytes) -> SemanticModel:
    view = build_view("rekey.cl", src, target=TARGET)
    return SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                         macro_state=view.macro_state_at)


def _facts(model: SemanticModel) -> dict[str, tuple]:
    return {name: (repr(info.type), info.is_kernel, [(p.name, repr(p.type), p.node.start_byte if p.node else None)
                                                    for p in info.params])
            for name, info in model.functions.items()}


def _fresh(src: bytes) -> dict[str, tuple]:
    with Database().active():
        return _facts(_model(src))


def _read(monkeypatch, src: bytes) -> tuple[list[str], SemanticModel]:  # noqa: ANN001
    from cllint.analysis.model import symbols

    read = []
    real = symbols._Head.of.__func__

    def counting(cls, got, spec, item):  # noqa: ANN001, ANN202
        read.append(got.name)
        return real(cls, got, spec, item)

    monkeypatch.setattr(symbols._Head, "of", classmethod(counting))
    model = _model(src)
    monkeypatch.undo()
    return read, model


def test_heads_naming_moved_tags_are_replayed_and_equal_a_fresh_reading(monkeypatch) -> None:  # noqa: ANN001
    current().table("model.heads", _HEADS_MAX).clear()
    _model(SOURCE)
    read, model = _read(monkeypatch, EDITED)
    assert "with_mode" not in read and "with_pix" not in read
    assert _facts(model) == _fresh(EDITED)


def test_replayed_tags_are_the_index_objects(monkeypatch) -> None:  # noqa: ANN001
    current().table("model.heads", _HEADS_MAX).clear()
    _model(SOURCE)
    _, model = _read(monkeypatch, EDITED)
    mode = model.functions["with_mode"].params[0].type
    assert isinstance(mode, Enum_) and mode is model.index.tags["mode_t"]
    pix = model.functions["with_pix"].params[0].type
    assert isinstance(pix, Pointer) and isinstance(pix.pointee, Struct)
    assert pix.pointee is model.index.typedefs["pix_t"].type
    early = model.functions["with_pix"].params[1].type
    assert early is model.index.tags["early"]  # defined above the edit: not moved


def test_keys_follow_two_edits_in_a_row(monkeypatch) -> None:  # noqa: ANN001
    current().table("model.heads", _HEADS_MAX).clear()
    _model(SOURCE)
    _model(EDITED)
    again = EDITED.replace(b"x * 2.0f", b"x * 20.0f")
    read, model = _read(monkeypatch, again)
    assert "with_mode" not in read
    assert _facts(model) == _fresh(again)
