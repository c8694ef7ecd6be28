"""The server's garbage-collection schedule: full passes between keystrokes, never inside one."""

from __future__ import annotations

import asyncio
import gc
import sys
from concurrent.futures import Future

import pytest

from cllint.server.lsp import Collector, _warm_up


def _run_now(fn, *args) -> Future:  # noqa: ANN001 - the worker's submit, without the thread
    done: Future = Future()
    done.set_result(fn(*args))
    return done


@pytest.fixture
def gc_state():
    before = gc.get_threshold()
    seen: list[int] = []

    def record(phase: str, info: dict) -> None:
        if phase == "start":
            seen.append(info["generation"])

    gc.callbacks.append(record)
    try:
        yield seen
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*before)
        gc.unfreeze()


def test_warm_up_hands_full_collections_to_the_collector(gc_state: list[int]) -> None:
    collector = Collector(_run_now)
    _warm_up(collector)
    assert collector.enabled
    young, middle, oldest = gc.get_threshold()
    assert oldest == Collector.NEVER and young > 0 and middle > 0  # the young ones stay CPython's
    # Garbage in cycles, as an analysis leaves: CPython alone never collects the oldest generation now.
    gc_state.clear()
    for _ in range(20_000):
        a: list = []
        a.append(a)
    assert 2 not in gc_state


def test_full_pass_once_the_heap_has_grown(gc_state: list[int]) -> None:
    kept: list[list] = []

    async def drive() -> tuple[list[int], list[int]]:
        collector = Collector(_run_now)
        collector.enabled = True
        collector._collect(2)
        gc_state.clear()
        for _ in range(Collector.MIDDLE_PASSES // 2):  # keystrokes: little new memory each
            kept.append([object() for _ in range(10)])
            collector.after_analysis()
        typing = list(gc_state)
        gc_state.clear()
        kept.append([[] for _ in range(sys.getallocatedblocks() // 2)])  # a file opened: a lot more
        collector.after_analysis()
        collector.busy()  # cancel the idle pass
        return typing, list(gc_state)

    typing, opened = asyncio.run(drive())
    assert 2 not in typing and typing.count(1) >= Collector.MIDDLE_PASSES // 2
    assert 2 in opened


def test_full_pass_after_many_middle_passes(gc_state: list[int]) -> None:
    async def drive() -> list[int]:
        collector = Collector(_run_now)
        collector.enabled = True
        collector._collect(2)
        gc_state.clear()
        for _ in range(Collector.MIDDLE_PASSES + 1):
            collector.after_analysis()
        collector.busy()
        return list(gc_state)

    assert 2 in asyncio.run(drive())


def test_idle_pass_runs_once_the_server_rests(gc_state: list[int]) -> None:
    async def drive() -> list[int]:
        collector = Collector(_run_now)
        collector.enabled = True
        collector.IDLE_S = 0.05
        gc_state.clear()
        collector.after_analysis()
        await asyncio.sleep(0.2)
        return list(gc_state)

    assert 2 in asyncio.run(drive())


def test_whole_file_analyses_keep_cpythons_full_passes(gc_state: list[int]) -> None:
    collector = Collector(_run_now)
    _warm_up(collector)
    collector.before_analysis(keystroke=False)  # an open: garbage must not pile up
    assert gc.get_threshold()[2] == Collector.CPYTHON_OLDEST
    collector.before_analysis(keystroke=True)
    assert gc.get_threshold()[2] == Collector.NEVER
