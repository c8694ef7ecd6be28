"""A time budget for linting one file: the rule running when it runs out is stopped.

Rules run one after another in the linting thread. A timer thread, at the deadline, raises
`BudgetExceeded` inside that thread (CPython's `PyThreadState_SetAsyncExc`, checked between
bytecodes), but only while a rule is running: the driver catches it around the rule, keeps
what the finished rules reported and lists the rest as skipped. Code in C (a parse, a
query) finishes its call first; the point is that no Python loop can hang the file.
"""

from __future__ import annotations

import time
from _thread import allocate_lock, get_ident
from types import TracebackType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import threading


# The code of the one diagnostic a run cut short by its budget carries (rules/budget.py).
BUDGET_CODE = "CL091"


class BudgetExceeded(BaseException):
    """Raised inside a rule when the file's budget is spent. A BaseException, as
    KeyboardInterrupt is: a rule's `except Exception` (robust to odd source) must not eat it."""


def _set_async_exc(thread: int, exc: type[BaseException] | None) -> None:
    """Schedules `exc` in `thread`, or (None: a NULL pointer) takes back one not yet raised."""
    import ctypes  # only once a budget runs out: ~1 ms of every start-up otherwise

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread), None if exc is None else ctypes.py_object(exc))


class Budget:
    """`with Budget(seconds) as b:` then `with b.rule():` around each rule. `seconds=None`
    is no budget (nothing is started)."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.deadline = None if seconds is None else time.monotonic() + seconds
        self._lock = allocate_lock()  # threading's own Lock; the module loads only with a timer
        self._thread = get_ident()
        self._in_rule = False
        self._raised = False
        self._timer: threading.Timer | None = None

    def __enter__(self) -> Budget:
        if self.seconds is not None:
            import threading

            self._timer = threading.Timer(max(0.0, self.seconds), self._expire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer is not None:
            self._timer.cancel()

    @property
    def spent(self) -> bool:
        return self.deadline is not None and time.monotonic() >= self.deadline

    def _expire(self) -> None:
        # Raised inside a finaliser or a GC callback, the exception is printed and lost
        # ("Exception ignored in"): raise it again until the rule is left.
        while True:
            with self._lock:
                if not self._in_rule:
                    return
                self._raised = True
                _set_async_exc(self._thread, BudgetExceeded)
            time.sleep(0.05)

    def rule(self) -> _RuleScope:
        return _RuleScope(self)


class _RuleScope:
    def __init__(self, budget: Budget) -> None:
        self.b = budget

    def __enter__(self) -> None:
        with self.b._lock:
            self.b._in_rule = True

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        b = self.b
        with b._lock:
            b._in_rule = False
            if b._raised:  # one may be scheduled still (raised again, or after the rule's end)
                _set_async_exc(b._thread, None)
            pending = b._raised and kind is not BudgetExceeded
        if pending:
            raise BudgetExceeded


__all__ = ["Budget", "BudgetExceeded"]
