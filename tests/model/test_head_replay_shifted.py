"""A body edit above a file-scope struct or enum moves it, so its key (its offset) changes:
the heads after it whose types name one of the file's tags are replayed with the tags' new
keys (analysis/model/rekey.py, since session 18; read again before), the others as they were
(analysis/model/symbols.py, `_Head.offsets`). Issue 32: every head after darktable's
anonymous colour-zone enum was read again on each keystroke above it (13 of 67 heads)."""

from __future__ import annotations

from cllint.analysis.database import current
from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import _HEADS_MAX
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL2.0")

SOURCE = b"""float pad(float x) { return x; }
enum { ZONE_L = 0, ZONE_C = 1 };
typedef enum mode_t { MODE_A, MODE_B } mode_t;
typedef struct { global int *p; } holder_t;
struct pair { float a, b; };
float plain(global const float *in, int n) { return in[n]; }
kernel void with_mode(mode_t m, global int *out) { out[0] = m; }
kernel void with_holder(holder_t h, global int *out) { out[0] = h.p[0]; }
struct pair *with_pair(global struct pair *p) { return 0; }
kernel void vectors(global float4 *v, local float2 *w, const uint n) { v[n] = (float4)(0.0f); }
"""

EDITED = SOURCE.replace(b"return x;", b"float y = x * 2.0f; return y;")


def _heads():
    return current().table("model.heads", _HEADS_MAX)


def _facts(src: bytes, replay: bool) -> dict[str, tuple]:
    view = build_view("f.cl", src, target=TARGET)
    model = SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                          macro_state=view.macro_state_at if replay else None)
    out = {}
    for name, info in model.functions.items():
        out[name] = (repr(info.type), info.is_kernel,
                     info.symbol.node.start_byte if info.symbol.node is not None else None,
                     [(p.name, repr(p.type), p.node.start_byte if p.node is not None else None)
                      for p in info.params])
    return out


def _read_again(monkeypatch, src: bytes) -> list[str]:
    """Names of the heads read (not replayed) while indexing `src`."""
    from cllint.analysis.model import symbols

    read = []
    real = symbols._Head.of.__func__

    def counting(cls, got, spec, item):  # noqa: ANN001, ANN202
        read.append(got.name)
        return real(cls, got, spec, item)

    monkeypatch.setattr(symbols._Head, "of", classmethod(counting))
    _facts(src, replay=True)
    monkeypatch.undo()
    return read


def test_heads_naming_no_file_tag_are_replayed_after_the_tags_move(monkeypatch) -> None:
    _heads().clear()
    _facts(SOURCE, replay=True)
    read = _read_again(monkeypatch, EDITED)
    assert "plain" not in read and "vectors" not in read and "pad" not in read


def test_heads_naming_a_moved_file_tag_are_replayed_at_its_new_key(monkeypatch) -> None:
    # (session 18: read again until the replay learnt to move the tags' keys, tests/model/test_head_rekey.py)
    _heads().clear()
    _facts(SOURCE, replay=True)
    read = _read_again(monkeypatch, EDITED)
    assert {"with_mode", "with_holder", "with_pair"}.isdisjoint(read)
    assert _facts(EDITED, replay=True) == _facts(EDITED, replay=False)


def test_a_shifted_replay_equals_a_fresh_reading() -> None:
    _heads().clear()
    before = _facts(SOURCE, replay=True)
    after = _facts(EDITED, replay=True)
    assert after == _facts(EDITED, replay=False)
    assert after["with_mode"][3][0][1] != before["with_mode"][3][0][1]  # the enum's key moved
