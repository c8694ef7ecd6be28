"""Function heads read before are replayed (analysis/model/symbols.py, `_Head`): a
replayed index must equal a fresh reading of the same text, and a head must be read
again whenever what it depends on (macros in force, earlier items) changed."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.symbols import _HEADS
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target
from cllint.grammar import parse

TARGET = Target.preset("CL2.0")

SOURCE = b"""#define GAS __global
typedef struct { float x, y; } pair_t;
typedef GAS pair_t *pairs_t;

inline float helper(GAS const float *restrict p, pairs_t q, int n) {
    return p[n] + q[n].x;
}

kernel __attribute__((reqd_work_group_size(8, 1, 1)))
void k(GAS float *out, __local float *tmp, pairs_t pairs, const int n) {
    int i = get_global_id(0);
    out[i] = helper(out, pairs, n);
}

float (*pick(int which))(float);
"""


def _facts(src: bytes, replay: bool) -> list[tuple]:
    view = build_view("f.cl", src, target=TARGET)
    model = SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                          macro_state=view.macro_state_at if replay else None)
    out = []
    for name, info in sorted(model.functions.items()):
        sym = info.symbol
        out.append((name, str(info.type), info.is_kernel, info.attributes,
                    sym.node.start_byte if sym.node is not None else None,
                    [(p.name, str(p.type), p.cv, p.node.start_byte if p.node is not None else None,
                      src[p.node.start_byte:p.node.end_byte] if p.node is not None else None)
                     for p in info.params]))
    return out


def test_a_body_edit_replays_every_head_and_equals_a_fresh_reading() -> None:
    _HEADS.clear()
    assert _facts(SOURCE, replay=True) == _facts(SOURCE, replay=False)
    remembered = len(_HEADS)
    assert remembered == 2  # helper and k (the prototype is not a definition)
    edited = SOURCE.replace(b"return p[n]", b"float extra = 1.0f;\n    return p[n]")
    assert _facts(edited, replay=True) == _facts(edited, replay=False)
    assert len(_HEADS) == remembered  # nothing new was read: both heads were replayed
    kernel = dict((f[0], f) for f in _facts(edited, replay=True))["k"]
    assert kernel[2] is True and "global" in kernel[5][0][1]


def test_a_macro_moved_between_bodies_makes_a_head_read_again() -> None:
    src = SOURCE.replace(b"#define GAS __global\n", b"#define GAS __global\n#define QUAL\n")
    src = src.replace(b"void k(GAS float *out", b"void k(GAS QUAL float *out")
    redefine = b"#undef QUAL\n#define QUAL const\n"
    # Inside k's body the redefinition comes after k's head; inside helper's, before it.
    before = src.replace(b"    int i = get_global_id(0);", redefine + b"    int i = get_global_id(0);")
    after = src.replace(b"    return p[n]", redefine + b"    return p[n]")
    _HEADS.clear()
    first = _facts(before, replay=True)
    assert first == _facts(before, replay=False)
    second = _facts(after, replay=True)
    assert second == _facts(after, replay=False)
    out_before = dict((f[0], f) for f in first)["k"][5][0][1]
    out_after = dict((f[0], f) for f in second)["k"][5][0][1]
    assert "const" not in out_before and "const" in out_after


def test_an_earlier_typedef_change_makes_later_heads_read_again() -> None:
    _HEADS.clear()
    first = _facts(SOURCE, replay=True)
    changed = SOURCE.replace(b"typedef GAS pair_t *pairs_t;", b"typedef __local pair_t *pairs_t;")
    second = _facts(changed, replay=True)
    assert second == _facts(changed, replay=False)
    q = [p for f in second if f[0] == "helper" for p in f[5] if p[0] == "q"][0]
    assert "local" in q[1] and q[1] != [p for f in first if f[0] == "helper" for p in f[5] if p[0] == "q"][0][1]
