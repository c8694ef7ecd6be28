"""What the server does before the first file's diagnostics (issue 32): the workspace's read starts
at `initialize`, and the sample lint of the warm-up never stands in a file's way: a file opened at
once is analysed first, and the collector then takes over the full passes as after a warm-up."""

from __future__ import annotations

import asyncio
import gc
from dataclasses import replace
from pathlib import Path

import pytest

import cllint.project.model as model
import cllint.server.lsp as lsp

KERNEL = "kernel void k(global int *p) { p[0] = 1; }\n"


@pytest.fixture
def restore_gc():
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)
    gc.unfreeze()


def test_the_read_started_at_initialize_is_the_first_files(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    made: list[object] = []
    real = model.Project

    class Counted(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            made.append(args)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(model, "Project", Counted)
    (tmp_path / "a.cl").write_text(KERNEL)
    server = lsp.CllintServer()
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    server.read_workspace()
    assert tmp_path in server._started and tmp_path in server._reading  # under way before any file
    project = server.project_for(tmp_path / "a.cl")
    assert project is not None and len(made) == 1  # the first file took that read, started none
    assert server.project_for(tmp_path / "a.cl") is project


def test_no_read_at_initialize_without_the_project_model(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    server = lsp.CllintServer()
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    server.editor = replace(server.editor, project_model=False)
    server.read_workspace()
    assert not server._started


def _served(server: lsp.CllintServer, uri: str | None, after: float) -> None:
    """initialized, then (maybe) a file opened at once, as a client restoring its editors does."""

    async def drive() -> None:
        server.loop = asyncio.get_running_loop()
        server.warm_when_idle()
        if uri is not None:
            server.submit(server.open_document, uri, 1, KERNEL)
            server.schedule(uri, 1)
        await asyncio.sleep(after)
        while server.pending:
            await asyncio.sleep(0.01)
        await asyncio.wrap_future(server.submit(lambda: None))  # what the worker was given is done

    asyncio.run(drive())


def test_a_file_opened_at_once_comes_before_the_sample(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                     restore_gc) -> None:
    samples: list[int] = []
    monkeypatch.setattr(lsp, "_lint_sample", lambda: samples.append(1))
    monkeypatch.setattr(lsp, "WARM_SAMPLE_AFTER_S", 0.05)
    server = lsp.CllintServer()
    server.diagnostic_mode = "pull"  # nothing to write to
    server.editor = replace(server.editor, compiler_check="off")
    server.warm_up()
    _served(server, (tmp_path / "a.cl").as_uri(), 0.3)
    assert server.analyses == 1 and samples == []  # analysed, and no sample after it
    assert server.collector.enabled  # full passes handed to the collector after the first analysis
    assert gc.get_threshold()[2] == lsp.Collector.NEVER


def test_the_sample_runs_when_no_file_comes(monkeypatch: pytest.MonkeyPatch, restore_gc) -> None:
    samples: list[int] = []
    monkeypatch.setattr(lsp, "_lint_sample", lambda: samples.append(1))
    monkeypatch.setattr(lsp, "WARM_SAMPLE_AFTER_S", 0.05)
    server = lsp.CllintServer()
    server.warm_up()
    _served(server, None, 0.3)
    assert samples == [1] and server.collector.enabled
