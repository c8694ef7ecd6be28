"""clang's feature-check operators and predefined macros in `#if` (issue 29): clang-19 decides
the arms; cllint reports no CL004 and never contradicts it (an undecided arm is allowed).
The held-out split is scored by `python tests/preprocessor/test_clang_conditions.py heldout`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from clang_conditions import CLANG, STDS, Case, agrees, clang_taken, load  # noqa: E402

CASES = load("tune")


def test_cases_are_labelled() -> None:
    assert len(CASES) >= 12 and all(c.arms for c in CASES)
    assert 2 * len(load("heldout")) >= len(CASES)  # about a third aside


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("std", STDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_clang_accepts(case: Case, std: str) -> None:
    _, errors = clang_taken(case.source, std)
    assert errors == []


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("std", STDS)
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_arms_as_clang(case: Case, std: str) -> None:
    taken, _ = clang_taken(case.source, std)
    ok, detail = agrees(case, std, taken)
    assert ok, detail


def test_decided_where_clang_is_the_compiler() -> None:
    """The clang-only names are decided, not just left open."""
    from clang_conditions import cllint_arms

    arms, _ = cllint_arms("#if __clang_major__ >= 19 && __has_builtin(__builtin_expect)\n#warning TAKEN_a\n#endif\n",
                          "CL1.2")
    assert arms == {"TAKEN_a": True}
    arms, _ = cllint_arms("#if __has_builtin(read_pipe)\n#warning TAKEN_a\n#endif\n", "CL1.2")
    assert arms == {"TAKEN_a": False}
    arms, _ = cllint_arms("#if __has_builtin(read_pipe)\n#warning TAKEN_a\n#endif\n", "CL2.0")
    assert arms == {"TAKEN_a": True}


def score(split: str) -> tuple[int, int]:
    passed = total = 0
    for case in load(split):
        for std in STDS:
            taken, errors = clang_taken(case.source, std)
            assert errors == [], (case.name, errors)
            ok, detail = agrees(case, std, taken)
            total += 1
            passed += ok
            if not ok:
                print("FAIL", detail)
    return passed, total


if __name__ == "__main__":
    split = sys.argv[1] if len(sys.argv) > 1 else "tune"
    p, t = score(split)
    print(f"{split}: {p}/{t} (case x OpenCL C version) agree with clang-19")


def test_has_include_asks_the_resolver() -> None:
    from cllint.analysis.preprocessor import build_view
    from cllint.analysis.target import Target

    calls = []

    def resolver(path, angled, including):  # noqa: ANN001, ANN202
        calls.append(path)
        return ("h.h", b"#define H 1\n") if path == "h.h" else None

    src = (b'#if __has_include("h.h") && !__has_include(<none.h>)\nyes;\n#else\nno;\n#endif\n'
           b'#if __has_include(<none.h>)\n#include <none.h>\n#endif\n')
    view = build_view("k.cl", src, target=Target.preset("CL1.2"), include_resolver=resolver)
    assert view.active_at(src.index(b"yes")) is True and view.active_at(src.index(b"no;")) is False
    assert view.diagnostics == [] and calls == ["h.h", "none.h", "none.h"]  # no CL002 in the dead arm
    view = build_view("k.cl", src, target=Target.preset("CL1.2"))
    assert view.active_at(src.index(b"yes")) is None  # no resolver: undecided, never CL004
