"""The realistic kernels of fixtures/realistic_r1/ (see realistic_cases.py): their labels still
say what clang-19 says, and cllint reports nothing of the CL0xx family on the clang-clean ones.
Recall on the rest is a benchmark, not a test: bench/semantic_realistic.py."""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from realistic_cases import CLANG, Kernel, cllint, clang, kernels, labels  # noqa: E402

KERNELS = kernels()
LABELS = labels()
CLEAN = [k for k in KERNELS if LABELS[k.name]["clean"]]


def test_every_kernel_is_labelled() -> None:
    assert sorted(LABELS) == sorted(k.name for k in KERNELS)
    assert 3 * len(CLEAN) >= len(KERNELS) - 3  # about a third clean
    assert sum(k.includes for k in KERNELS) >= 6
    for name, label in LABELS.items():
        flagged = {d["line"] for d in label["errors"] + label["warnings"]}
        assert label["clean"] == (not flagged), name
        assert {m["line"] for m in label["mistakes"]} == flagged, name
        assert all(m["expect"] for m in label["mistakes"]), name


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("k", KERNELS, ids=[k.name for k in KERNELS])
def test_labels_are_what_clang_says(k: Kernel) -> None:
    label = LABELS[k.name]
    want = Counter([(d["line"], "error", d["message"]) for d in label["errors"]]
                   + [(d["line"], "warning", d["message"]) for d in label["warnings"]])
    assert Counter(clang(k)) == want


@pytest.mark.parametrize("k", CLEAN, ids=[k.name for k in CLEAN])
def test_clean_kernels_are_quiet(k: Kernel) -> None:
    assert [r for r in cllint(k) if r.code.startswith("CL0")] == []
