"""Function heads read before are replayed (analysis/model/symbols.py, `_Head`): a
replayed index must equal a fresh reading of the same text, and a head must be read
again whenever what it depends on (macros in force, earlier items) changed."""

from __future__ import annotations

from cllint.analysis.model import SemanticModel
from cllint.analysis.database import current
from cllint.analysis.model.symbols import _HEADS_MAX
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


def _heads():
    """The current database's function heads (analysis/model/symbols.py)."""
    return current().table("model.heads", _HEADS_MAX)


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
    _heads().clear()
    assert _facts(SOURCE, replay=True) == _facts(SOURCE, replay=False)
    remembered = len(_heads())
    assert remembered == 2  # helper and k (the prototype is not a definition)
    edited = SOURCE.replace(b"return p[n]", b"float extra = 1.0f;\n    return p[n]")
    assert _facts(edited, replay=True) == _facts(edited, replay=False)
    assert len(_heads()) == remembered  # nothing new was read: both heads were replayed
    kernel = dict((f[0], f) for f in _facts(edited, replay=True))["k"]
    assert kernel[2] is True and "global" in kernel[5][0][1]


def test_a_macro_moved_between_bodies_makes_a_head_read_again() -> None:
    src = SOURCE.replace(b"#define GAS __global\n", b"#define GAS __global\n#define QUAL\n")
    src = src.replace(b"void k(GAS float *out", b"void k(GAS QUAL float *out")
    redefine = b"#undef QUAL\n#define QUAL const\n"
    # Inside k's body the redefinition comes after k's head; inside helper's, before it.
    before = src.replace(b"    int i = get_global_id(0);", redefine + b"    int i = get_global_id(0);")
    after = src.replace(b"    return p[n]", redefine + b"    return p[n]")
    _heads().clear()
    first = _facts(before, replay=True)
    assert first == _facts(before, replay=False)
    second = _facts(after, replay=True)
    assert second == _facts(after, replay=False)
    out_before = dict((f[0], f) for f in first)["k"][5][0][1]
    out_after = dict((f[0], f) for f in second)["k"][5][0][1]
    assert "const" not in out_before and "const" in out_after


def test_an_earlier_typedef_change_makes_later_heads_read_again() -> None:
    _heads().clear()
    first = _facts(SOURCE, replay=True)
    changed = SOURCE.replace(b"typedef GAS pair_t *pairs_t;", b"typedef __local pair_t *pairs_t;")
    second = _facts(changed, replay=True)
    assert second == _facts(changed, replay=False)
    q = [p for f in second if f[0] == "helper" for p in f[5] if p[0] == "q"][0]
    assert "local" in q[1] and q[1] != [p for f in first if f[0] == "helper" for p in f[5] if p[0] == "q"][0][1]


STRUCT_AFTER_A_BODY = b"""float pad(float x) { return x; }
typedef struct { global int *p; } holder_t;
kernel void k(holder_t st, global int *out) { out[0] = 1; }
"""


def _param_keys(src: bytes, replay: bool) -> list[tuple[str, object]]:
    view = build_view("f.cl", src, target=TARGET)
    model = SemanticModel(parse(src), src, TARGET, macro_expander=view.expand_type_macro,
                          macro_state=view.macro_state_at if replay else None)
    return [(p.name, getattr(p.type, "key", None)) for p in model.functions["k"].params]


def test_a_struct_moved_by_an_earlier_body_edit_makes_later_heads_read_again() -> None:
    """A struct is keyed by where it is defined (its fields' nodes are found by that key):
    a body edit above it moves it with every item's text unchanged, and a head replayed from
    before the edit would carry the old key (CL104's 'field declared here' note went
    missing in an edited file)."""
    _heads().clear()
    before = _param_keys(STRUCT_AFTER_A_BODY, replay=True)
    edited = STRUCT_AFTER_A_BODY.replace(b"return x;", b"float y = x * 2.0f; return y;")
    after = _param_keys(edited, replay=True)
    assert after == _param_keys(edited, replay=False)
    assert after[0][1] != before[0][1]  # the struct moved, so its key did
