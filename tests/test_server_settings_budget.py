"""The editor's per-file analysis budget (`analysisBudget`, issue 19): 2 s unless set, 0 for
none, anything else ignored; it reaches the lint options of every document."""

from __future__ import annotations

from cllint.server.settings import DEFAULT_BUDGET_S, from_json, lint_options


def test_budget_default_set_and_off() -> None:
    assert from_json({}).budget_s == DEFAULT_BUDGET_S == 2.0
    assert from_json({"analysisBudget": 0.5}).budget_s == 0.5
    assert from_json({"analysisBudget": 0}).budget_s is None
    for wrong in (-1, "2", True, None):
        assert from_json({"analysisBudget": wrong}).budget_s == DEFAULT_BUDGET_S
    assert "analysisBudget" not in from_json({"analysisBudget": 1}).extra


def test_budget_reaches_the_lint_options() -> None:
    assert lint_options(None, from_json({"analysisBudget": 0.25})).budget == 0.25
    assert lint_options(None, from_json({"analysisBudget": 0})).budget is None
