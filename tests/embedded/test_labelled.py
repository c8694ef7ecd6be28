"""Labelled host files (fixtures/ tuned against, heldout/ kept aside): kernels found, and
each diagnostic's code and the exact host text its range covers."""

from __future__ import annotations

import pytest

from embedded_labelled import Case, actual, cases


@pytest.mark.parametrize("case", cases("fixtures"), ids=lambda c: c.path.name)
def test_tune(case: Case) -> None:
    assert actual(case) == (case.kernels, set(case.expected))


@pytest.mark.parametrize("case", cases("heldout"), ids=lambda c: c.path.name)
def test_heldout(case: Case) -> None:
    assert actual(case) == (case.kernels, set(case.expected))
