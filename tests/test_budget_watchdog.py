"""The budgets' one watchdog thread (analysis/budget.py, issue 32): a lint per keystroke starts
no thread of its own, and a budget shorter than the one the watchdog sleeps for still runs out."""

from __future__ import annotations

import threading
import time

import pytest

from cllint.analysis.budget import Budget, BudgetExceeded


def test_many_budgets_start_one_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    started: list[str] = []
    real = threading.Thread.start

    def start(self: threading.Thread) -> None:
        started.append(self.name)
        real(self)

    monkeypatch.setattr(threading.Thread, "start", start)
    for _ in range(30):  # keystrokes: each lint under its own budget, none running out
        with Budget(30.0) as b, b.rule():
            pass
    assert len(started) <= 1  # the watchdog, if it was not running yet (a timer each: 30)


def test_a_shorter_budget_wakes_the_watchdog() -> None:
    with Budget(60.0):  # the watchdog now sleeps toward this one's deadline
        stopped = False
        started = time.monotonic()
        try:
            with Budget(0.1) as b, b.rule():
                while time.monotonic() - started < 20:
                    pass
        except BudgetExceeded:
            stopped = True
        assert stopped and time.monotonic() - started < 10


def test_a_budget_left_in_time_raises_nothing() -> None:
    with Budget(0.05) as b:
        with b.rule():
            pass
        time.sleep(0.2)  # past the deadline, outside any rule: nothing is raised
    assert b.spent
