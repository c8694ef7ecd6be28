"""A slow workspace read: every file that comes while it is read, the first included, waits for
it (within PROJECT_PATIENCE_S from its start), so none is judged without its program (the flood
that program explains: PoCL's CL002 and CL301 on a loaded machine; TNN's first file on a loaded
machine got 12 CL001 from a host -D operator when the first file waited only 3 s)."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

import cllint.project.model as model
import cllint.server.lsp as lsp


@pytest.fixture
def slow_workspace(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    real = model.Project

    class SlowProject(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            time.sleep(3.5)  # a large workspace's reading, longer than the old 3 s first wait
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(model, "Project", SlowProject)
    (tmp_path / "defs.h").write_text("#define TILE 16\n")
    for name in ("a.cl", "b.cl"):
        (tmp_path / name).write_text('#include "defs.h"\nkernel void k(global int *p) { p[0] = TILE; }\n')
    server = lsp.CllintServer()
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    return server, tmp_path


def test_the_first_file_waits_for_the_read(slow_workspace) -> None:
    server, root = slow_workspace
    project = server.project_for(root / "a.cl")
    assert project is not None and project.context(root / "a.cl").prelude is not None


def test_a_later_file_waits_for_the_read(slow_workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    server, root = slow_workspace
    monkeypatch.setattr(lsp, "PROJECT_PATIENCE_S", 0.1)
    assert server.project_for(root / "a.cl") is None  # the first gave up (a short patience)
    monkeypatch.setattr(lsp, "PROJECT_PATIENCE_S", 15.0)
    started = time.monotonic()
    project = server.project_for(root / "b.cl")
    assert project is not None and time.monotonic() - started < 5
    assert server.project_for(root / "a.cl") is project


def test_the_wait_is_bounded(slow_workspace, monkeypatch: pytest.MonkeyPatch) -> None:
    server, root = slow_workspace
    monkeypatch.setattr(lsp, "PROJECT_PATIENCE_S", 0.2)
    assert server.project_for(root / "a.cl") is None
    started = time.monotonic()
    assert server.project_for(root / "b.cl") is None  # past the patience: judged alone
    assert time.monotonic() - started < 0.5
