"""A time budget for linting one file: the rule running when it runs out is stopped.

Rules run one after another in the linting thread. At the deadline, `BudgetExceeded` is raised
inside that thread (CPython's `PyThreadState_SetAsyncExc`, checked between bytecodes), but only
while a rule is running: the driver catches it around the rule, keeps what the finished rules
reported and lists the rest as skipped. Code in C (a parse, a query) finishes its call first;
the point is that no Python loop can hang the file.

One watchdog thread per process keeps every budget's deadline: it sleeps until the earliest
and rarely wakes otherwise. A timer thread per budget cost each keystroke in the editor two
thread switches (the timer's start and its cancel), each waiting for the OS to run that thread
while the analysis held back (issue 32).
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

    def __enter__(self) -> Budget:
        if self.deadline is not None:
            _WATCHDOG.watch(self)
        return self

    def __exit__(self, *exc: object) -> None:
        if self.deadline is not None:
            _WATCHDOG.forget(self)

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


class _Watchdog:
    """Calls `_expire` of each budget being watched at its deadline, from one thread that
    sleeps until the earliest deadline (or IDLE_S with none) and ends after IDLE_S idle."""

    IDLE_S = 5.0

    def __init__(self) -> None:
        self._cond: threading.Condition | None = None  # made with the first budget: threading loads then
        self._making = allocate_lock()
        self._watched: set[Budget] = set()
        self._running = False
        self._wake_at = 0.0  # when the thread wakes next, unless notified

    def watch(self, budget: Budget) -> None:
        import threading

        if self._cond is None:
            with self._making:
                if self._cond is None:
                    self._cond = threading.Condition(allocate_lock())
        with self._cond:
            self._watched.add(budget)
            if not self._running:
                self._running = True
                self._wake_at = budget.deadline  # type: ignore[assignment]
                threading.Thread(target=self._run, daemon=True, name="cllint-budget").start()
            elif budget.deadline < self._wake_at:  # type: ignore[operator]  # sooner than it wakes
                self._cond.notify()

    def forget(self, budget: Budget) -> None:
        assert self._cond is not None
        with self._cond:  # not notified: waking, it finds nothing due
            self._watched.discard(budget)

    def _run(self) -> None:
        import threading

        idle_since = time.monotonic()
        assert self._cond is not None
        with self._cond:
            while True:
                now = time.monotonic()
                for b in [b for b in self._watched if b.deadline <= now]:  # type: ignore[operator]
                    self._watched.discard(b)
                    # raised again until the rule is left: in a thread of its own (rare)
                    threading.Thread(target=b._expire, daemon=True, name="cllint-budget-expired").start()
                if self._watched:
                    idle_since = now
                    self._wake_at = min(b.deadline for b in self._watched)  # type: ignore[type-var]
                elif now - idle_since >= self.IDLE_S:
                    self._running = False
                    return
                else:
                    self._wake_at = idle_since + self.IDLE_S
                self._cond.wait(max(0.0, self._wake_at - now))


# The process's watchdog: a thread, as a pool is, not a memo of anything the analyses read.
_WATCHDOG = _Watchdog()

__all__ = ["Budget", "BudgetExceeded"]
