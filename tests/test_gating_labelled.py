"""CL3xx recall and precision on labelled kernels (tests/gating_eval.py), per split and mode.

Issue 18's targets: recall and precision of at least 95% in portability and in target mode.
The held-out third is scored by the same test, apart, so a regression there shows by name.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gating_eval import SPLITS, files, labels, reports, score  # noqa: E402

TARGET = 0.95


# Below target when last measured, each with why; strict, so a fix shows as XPASS.
KNOWN_SHORT = {
    ("tune", "portability"): "recall 13/14: a cast of a global pointer to an unqualified pointer "
                             "(`(atomic_int *)o`) relies on the generic address space; not detected",
    ("heldout", "portability"): "precision 6/8 (held out, scored only)",
}


@pytest.mark.parametrize("mode", ["portability", "target"])
@pytest.mark.parametrize("split", SPLITS)
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


def test_a_missing_report_lowers_recall(tmp_path) -> None:
    """The scorer itself: a mark on a clean line is a miss, not a match."""
    path = tmp_path / "k.cl"
    path.write_text("// mode: portability\nkernel void k(global int *o) { o[0] = 1; } // expect CL301\n")
    assert labels(path) == {("k.cl", "CL301", 2)}
    assert reports(path) == set()
