"""A header included again with the same relevant macro state replays the events of its first
reading (analysis/preprocessor/header_runs.py) instead of being read again: libclc's
template-by-include headers (`#define __CLC_BODY <x.inc>` then `#include <gentype.inc>`,
hundreds of times). Each case is labelled with how many includes the memo serves (written
before the code); whatever it serves, the view must be that of a build that replays nothing.

TUNE cases were run while writing the code; HELDOUT cases only once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.database import Database
from cllint.analysis.preprocessor.view import PreprocessorView, build_view
from cllint.analysis.target import Target

from test_view_reuse import describe  # noqa: E402 - the same description of a view

CL12 = Target.preset("CL1.2")

# gentype.inc in small: definitions around a computed include (never followed), an fp64 arm.
GEN = b"""#define T_SIZE 1
#define T_TYPE float
#include BODY
#undef T_TYPE
#define T_TYPE float2
#define T_SIZE2 2
#include BODY
#undef T_SIZE2
#undef T_TYPE
#ifdef cl_khr_fp64
#define T_TYPE double
#include BODY
#undef T_TYPE
#endif
#undef T_SIZE
"""
FUNCS = b"""#define BODY <decl.inc>
#define FN sin
#include "gen.inc"
#undef FN
#define FN cos
#include "gen.inc"
#undef FN
#define FN tan
#include "gen.inc"
#undef FN
#undef BODY
"""


class Case:
    def __init__(self, name: str, headers: dict[str, bytes], main: bytes, replays: int) -> None:
        self.name, self.headers, self.main, self.replays = name, headers, main, replays

    def resolve(self, name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        data = self.headers.get(name)
        return None if data is None else (f"/inc/{name}", data)


TUNE = [
    # gen.inc three times, reading only cl_khr_fp64 (no source event): the 2nd and 3rd replay.
    Case("template", {"gen.inc": GEN, "funcs.h": FUNCS}, b'#include "funcs.h"\nkernel void k() {}\n', 2),
    # A guarded header: each reading adds a `#define G_H` under its own (dead) arm, which the
    # next one's `#ifndef` reads, so no two entries agree. (Labelled 1 at first: the view keeps
    # the events of dead arms, guarded, and the guards differ.)
    Case("guard", {"g.h": b"#ifndef G_H\n#define G_H\n#define G_VAL 3\n#endif\n"},
         b'#include "g.h"\n#include "g.h"\n#include "g.h"\nint x;\n', 0),
    # A header whose #if reads a value defined before it: same value replays, another does not.
    Case("value", {"v.h": b"#if MODE == 1\n#define R 10\n#else\n#define R 20\n#endif\n"},
         b'#define MODE 1\n#include "v.h"\n#include "v.h"\n#undef MODE\n#define MODE 2\n#include "v.h"\n'
         b'#undef MODE\n#define MODE 1\n#include "v.h"\nint y;\n', 2),
    # A name defined in an arm before the include: its guarded chain is the same both times.
    Case("guarded chain", {"u.h": b"#if USE\n#define U_ON 1\n#endif\n"},
         b'#ifdef cl_khr_fp64\n#define USE 1\n#endif\n#include "u.h"\n#include "u.h"\nint z;\n', 1),
    # `#pragma once` in a nested header: the 2nd n.h sees p.h already read, the 3rd is the 2nd.
    Case("once nested", {"p.h": b"#pragma once\n#define P_VAL 1\n", "n.h": b'#include "p.h"\n#define N_VAL P_VAL\n'},
         b'#include "n.h"\n#include "n.h"\n#include "n.h"\nint w;\n', 1),
    # A missing include and an extension pragma in the header, the 3rd reading inside an #if arm.
    Case("missing and pragma", {"m.h": b'#include "nothere.h"\n#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n'
                                       b"#define M_VAL 1\n"},
         b'#include "m.h"\n#include "m.h"\n#if 1\n#include "m.h"\n#endif\nint v;\n', 2),
]

HELDOUT = [
    # A header that includes itself behind a guard: as with "guard", each reading adds a
    # `#define R_DONE` under its own arm, so no reading replays another. (Labelled 1 before the
    # code was run, the one held-out label it missed: the same misreading as "guard".)
    Case("self include", {"r.h": b'#ifndef R_DONE\n#define R_DONE\n#include "r.h"\n#endif\n#define R_COUNT 1\n'},
         b'#include "r.h"\n#include "r.h"\n#include "r.h"\nint u;\n', 0),
    # __has_include inside the header: answered alike both times.
    Case("has_include", {"hi.h": b'#if __has_include("opt.h")\n#define HAVE_OPT 1\n#endif\n', "opt.h": b""},
         b'#include "hi.h"\n#include "hi.h"\nint t;\n', 1),
    # funcs.h twice, once two arms deep and once at the top (an FP_CONTRACT pragma in between):
    # gen.inc replays twice inside the first, and the second funcs.h replays whole.
    Case("depth", {"gen.inc": GEN, "funcs.h": FUNCS},
         b'#if 1\n#if 1\n#include "funcs.h"\n#endif\n#endif\n#pragma OPENCL FP_CONTRACT OFF\n#include "funcs.h"\n'
         b"int s;\n", 3),
]


def build(case: Case, main: bytes, memo: bool, file_id: str = "/inc/main.cl") -> PreprocessorView:
    with Database().active():
        return build_view(file_id, main, target=CL12, include_resolver=case.resolve, memo_headers=memo)


def check(case: Case) -> None:
    got = build(case, case.main, True)
    want = build(case, case.main, False)
    assert want.replayed_includes == 0
    assert got.replayed_includes == case.replays
    assert describe(got, len(case.main)) == describe(want, len(case.main))


@pytest.mark.parametrize("case", TUNE, ids=lambda c: c.name)
def test_tune_cases_replay_as_labelled(case: Case) -> None:
    check(case)


@pytest.mark.parametrize("case", HELDOUT, ids=lambda c: c.name)
def test_heldout_cases_replay_as_labelled(case: Case) -> None:
    check(case)


def test_a_second_file_replays_the_headers_of_the_first() -> None:
    """The memo lives in the database: a second file including funcs.h replays it whole, and
    its view is that of a build that replays nothing."""
    case = TUNE[0]
    other = b"#define LOCAL 1\n" + case.main
    with Database().active():
        build_view("/inc/one.cl", case.main, target=CL12, include_resolver=case.resolve)
        got = build_view("/inc/two.cl", other, target=CL12, include_resolver=case.resolve)
    assert got.replayed_includes == 1
    want = build(case, other, False, "/inc/two.cl")
    assert describe(got, len(other)) == describe(want, len(other))


def test_a_changed_header_is_read_again() -> None:
    """The answers of the resolver are part of what a replay checks: new bytes, a new reading."""
    case = Case("changed", {"g.h": b"#define G 1\n"}, b'#include "g.h"\nint x;\n', 0)
    with Database().active():
        build_view("/inc/one.cl", case.main, target=CL12, include_resolver=case.resolve)
        case.headers["g.h"] = b"#define G 2\n"
        got = build_view("/inc/two.cl", case.main, target=CL12, include_resolver=case.resolve)
    assert got.replayed_includes == 0
    assert got.macro_at("G", len(case.main)).body == "2"


def test_a_guard_redefined_past_the_chain_limit() -> None:
    """Forty readings of a guarded header: past 16 guarded redefinitions the chain is an
    unknown value, and once the last 17 are all unknown, later readings replay; the view is
    still that of a build that replays nothing."""
    case = Case("many", {"g.h": b"#ifndef G_H\n#define G_H\n#define G_VAL 3\n#endif\n"},
                b'#include "g.h"\n' * 40 + b"int x;\n", 0)
    got = build(case, case.main, True)
    want = build(case, case.main, False)
    assert got.replayed_includes > 0
    assert describe(got, len(case.main)) == describe(want, len(case.main))


def test_a_reading_is_not_replayed_for_a_resolver_whose_host_supplies_other_headers() -> None:
    """A resolver's `host_headers` (names the host supplies: no CL002 for them) is part of
    what a reading depends on: a second file whose host supplies `gen.h` reads m.h again."""
    class HostResolver(Case):
        host_headers: frozenset[str] = frozenset()

    plain = HostResolver("plain", {"m.h": b'#include "gen.h"\n#define M 1\n'}, b'#include "m.h"\nint v;\n', 0)
    hosted = HostResolver("hosted", plain.headers, plain.main, 0)
    hosted.host_headers = frozenset({"gen.h"})
    with Database().active():
        build_view("/inc/one.cl", plain.main, target=CL12, include_resolver=plain.resolve)
        got = build_view("/inc/two.cl", hosted.main, target=CL12, include_resolver=HostBound(hosted))
    assert got.replayed_includes == 0


class HostBound:
    """A resolver function with the `host_headers` attribute the builder reads."""

    def __init__(self, case: Case) -> None:
        self.case = case
        self.host_headers = case.host_headers

    def __call__(self, name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        return self.case.resolve(name, angled, including)
