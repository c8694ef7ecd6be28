"""Held-out labelled cases for CL920 / CL921 (history_cases_heldout.py): not used for tuning."""

from __future__ import annotations

import pytest

from cllint.server.runner.changes import output_change, timing_change
from history_cases import run
from history_cases_heldout import OUTPUT_CASES, TIMING_CASES


@pytest.mark.parametrize("name,prev,cur,slower", TIMING_CASES, ids=[c[0] for c in TIMING_CASES])
def test_timing_heldout(name, prev, cur, slower):
    change = timing_change(run(prev), run(cur))
    assert (None if change is None else change.slower) == slower


@pytest.mark.parametrize("name,prev,cur,expected", OUTPUT_CASES, ids=[c[0] for c in OUTPUT_CASES])
def test_output_heldout(name, prev, cur, expected):
    change = output_change(run(None, prev), run(None, cur))
    assert (None if change is None else (change.buffer, change.index)) == expected
