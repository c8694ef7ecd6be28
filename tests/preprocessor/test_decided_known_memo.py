"""The names an arm's conditions may mention for it to count as decided (`decided._known`),
kept by content across views: each keystroke's new view has equal macros, and comparing them
costs less than the loop over them (issue 32, session 20). Every answer must equal one made
in a fresh database. Written after the memo, before any run of it; held-out third (crc32 %
3 == 0) in test_decided_known_memo_heldout.py."""

from __future__ import annotations

from collections.abc import Mapping

from cllint.analysis.database import Database
from cllint.analysis.preprocessor.decided import decided_dead_ranges, decided_live_ranges
from cllint.analysis.preprocessor.view import build_view
from cllint.analysis.target import Target

FILE = b"""#if TILE > 1
int a;
#endif
#ifdef X
int b;
#endif
#if __OPENCL_C_VERSION__ >= 200
int c;
#else
int d;
#endif
kernel void k(global int *p) { p[0] = 1; }
"""


def ranges(text: bytes, target: Target, defines: dict[str, str], portable: Mapping[str, str] | None,
           db: Database) -> tuple:
    with db.active():
        view = build_view("k.cl", text, target=target, defines=defines)
        return decided_dead_ranges(view, portable), decided_live_ranges(view, portable)


def same_as_fresh(steps: list[tuple[bytes, Target, dict[str, str], bool]]) -> list[tuple]:
    """Each step's ranges in one database, checked against a fresh one's; returns them."""
    db, out = Database(), []
    for text, target, defines, portability in steps:
        portable = target.predefined_macros() if portability else None
        got = ranges(text, target, defines, portable, db)
        assert got == ranges(text, target, defines, portable, Database()), (text, defines, portability)
        out.append(got)
    return out


CL12, CL30 = Target.preset("CL1.2"), Target.preset("CL3.0")


def test_dash_d_value_changes_between_lints() -> None:
    # `TILE` from `-D`: the arm is the build's to decide (kept); without it, the host's
    with_d, without, again = same_as_fresh([(FILE, CL12, {"TILE": "2"}, True), (FILE, CL12, {}, True),
                                            (FILE, CL12, {"TILE": "2"}, True)])
    assert with_d[1] != without[1] and again == with_d
    assert any(b"int a;" in FILE[s:e] for s, e in with_d[1])


def test_target_mode_then_portability() -> None:
    target, portable = same_as_fresh([(FILE, CL30, {}, False), (FILE, CL30, {}, True)])
    # a target decides the version arm; portability mode leaves it to the device
    assert target[0] != portable[0]


def test_same_names_other_stand_in() -> None:
    a, b = same_as_fresh([(FILE, CL12, {"X": "1"}, True), (FILE, CL30, {"X": "1"}, True)])
    assert a[1] and b[1]  # `#ifdef X` kept by `-D X=1` under both stand-ins
