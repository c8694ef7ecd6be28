"""CL3xx recall and precision on labelled kernels (tests/gating_eval.py), per split and mode.

Issue 18's targets: recall and precision of at least 95% in portability and in target mode.
The held-out third is scored by the same test, apart, so a regression there shows by name.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gating_eval import SPLITS, files, header, hint_codes, labels, options_for, reports, score  # noqa: E402
from gating_label import check  # noqa: E402

TARGET = 0.95


# Below target when last measured, each with why; strict, so a fix shows as XPASS.
KNOWN_SHORT = {
    # ("heldout", "target") scored recall 11/12 until the 32-bit atom_* needed their int32
    # atomics extension by address space on 1.0 (spec "Atomic Function Extensions"): 12/12
    # since, so it is asserted (its files not looked at).
    # Round 4 (written apart from the rules and the other held-out sets) scored 25/26 and 25/27
    # when first run; the fix for one of its two false alarms (64-bit atom_* are not
    # deprecated, spec section "Legacy 64-Bit Atomic Extensions") brings it to the target,
    # so it is asserted now, no longer a clean held-out figure (BENCHMARKS.md).
    # Round 5 (written apart from the rules and the other held-out sets), first scored at
    # 56d2c10: recall 30/32, precision 30/30; both misses were spec-only lines clang-19
    # accepts on 1.0 (integer clamp, a uchar store without cl_khr_byte_addressable_store).
    # Session 8's two fixes (per-overload version floors, spec "Integer Functions"; stores
    # on 1.0 without cl_khr_byte_addressable_store, "Restrictions") bring it to 32/32, so it
    # is asserted now, no longer a clean held-out figure (BENCHMARKS.md).
    # Round 7 held out (written apart from the code changes and the other held-out sets), first
    # scored at defbe5d: recall 39/42 (a scalar half declared through a typedef name on 1.2,
    # three lines of one file), precision 39/40 (CL304 on atomic_inc at 3.0, clang silent).
    # Issue 30: its CL304 false alarm is a hint now (scored apart, as `cllint check` hides it),
    # and clang-19's double-literal warning is labelled CL308 (found): recall 40/43, precision 40/40.
    ("heldout_r7", "target"): "recall 40/43 (held out, scored only)",
}
# heldout_r6 (round 6, written apart from the code changes and the other held-out sets) met the
# target when first scored, at 6b139a5: recall 34/35, precision 34/35, so it is asserted.
# heldout_r7a (round 7's kept-aside third, written with tune_r7 before the code) scored once at
# 3ef6ce9, after both classes: recall 6/6, precision 6/6, so it is asserted.
# heldout_r8a (issue 30's kept-aside third, written with tune_r8 before the code and checked with
# clang-19) scored once after classes 1, 2, 4 and 5 (at 6e8f942): portability 7/7 and 7/7, target
# 5/5 and 5/5, so it is asserted.


# Only the pairs that have kernels: rounds 3 to 5 are target mode only.
SCORED = [(split, mode) for split in SPLITS for mode in ("portability", "target") if files(split, mode)]


def test_every_split_is_scored_in_target_mode() -> None:
    assert {split for split, mode in SCORED if mode == "target"} == set(SPLITS)
    assert set(KNOWN_SHORT) <= set(SCORED), "a known shortfall for a split and mode that has no kernels"


@pytest.mark.parametrize(("split", "mode"), SCORED)
def test_recall_and_precision(split: str, mode: str, request: pytest.FixtureRequest) -> None:
    if (split, mode) in KNOWN_SHORT:
        request.applymarker(pytest.mark.xfail(reason=KNOWN_SHORT[split, mode], strict=True))
    s = score(split, mode)
    assert s.expected, "no labelled reports in this split and mode"
    assert s.recall >= TARGET, s.misses()
    assert s.precision >= TARGET, s.extras()


def test_every_labelled_file_has_a_mode_header() -> None:
    for split in SPLITS:
        for path in files(split):
            assert "// mode: " in path.read_text(), path


def test_every_mode_header_is_what_the_options_select() -> None:
    """`// mode:` agrees with the mode cllint/config.py picks from the other headers (issue 30:
    `// std:` alone is portability mode, `// target:`/`// features:` target mode)."""
    for split in SPLITS:
        for path in files(split):
            text = path.read_text()
            assert options_for(text).mode == header(text, "mode"), path


@pytest.mark.parametrize("split", [s for s in SPLITS if s.startswith("tune")])
def test_hints_are_scored_apart(split: str) -> None:
    """CL304 (a hint since issue 30) is left out of the figures and scored on its own."""
    main, hints = score(split), score(split, hints=True)
    assert not {c for _, c, _ in main.expected | main.reported} & hint_codes()
    assert {c for _, c, _ in hints.expected | hints.reported} <= hint_codes()
    assert hints.recall >= TARGET and hints.precision >= TARGET, (hints.misses(), hints.extras())


def test_a_missing_report_lowers_recall(tmp_path) -> None:
    """The scorer itself: a mark on a clean line is a miss, not a match."""
    path = tmp_path / "k.cl"
    path.write_text("// mode: portability\nkernel void k(global int *o) { o[0] = 1; } // expect CL301\n")
    assert labels(path) == {("k.cl", "CL301", 2)}
    assert reports(path) == set()


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", [p for split in SPLITS for p in files(split)], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_labels_agree_with_clang(path: Path) -> None:
    """Every label is a line clang-19 rejects for the fixture's mode and target, and back
    (tests/gating_label.py; `// spec-only` marks what the spec gates and clang does not)."""
    assert check(path) == []
