"""A workspace still read past the patience (a 16,000-file tree on a loaded machine): the files
judged meanwhile get no report that depends on the program (a name its host or a sibling may
define: undeclared identifiers and calls, "pass it with -D"), so no flood is shown that the
program then takes back; once the read lands, the full reports come, real ones included."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

import cllint.project.model as model
import cllint.server.lsp as lsp
from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source

_KERNEL = "kernel void k(global int *p) { p[0] = TILE + not_declared_anywhere; }\n"
_NAME_CODES = {"CL010", "CL011", "CL012"}


@pytest.fixture
def held_workspace(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    gate = threading.Event()
    real = model.Project

    class HeldProject(real):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            gate.wait(30)  # the read lasts until the test lets it finish
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(model, "Project", HeldProject)
    monkeypatch.setattr(lsp, "PROJECT_PATIENCE_S", 0.2)
    (tmp_path / "k.cl").write_text(_KERNEL)
    (tmp_path / "build.py").write_text('prg = cl.Program(ctx, open("k.cl").read()).build(options=["-DTILE=16"])\n')
    server = lsp.CllintServer()
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    return server, tmp_path, gate


def _codes(server: lsp.CllintServer, path: Path) -> list[str]:
    options = server.program_of(path, LintOptions())
    return sorted(d.code for d in lint_source(str(path), path.read_bytes(), options) if d.code in _NAME_CODES)


def test_nothing_that_needs_the_program_while_it_is_read(held_workspace) -> None:
    server, root, gate = held_workspace
    try:
        assert _codes(server, root / "k.cl") == []
    finally:
        gate.set()


def test_the_real_report_comes_with_the_program(held_workspace) -> None:
    server, root, gate = held_workspace
    server.project_for(root / "k.cl")  # gives up waiting: the read goes on
    gate.set()
    done, _ = server._reading[root]
    assert done.wait(30)
    # TILE is the host's; the other name no file declares
    assert _codes(server, root / "k.cl") == ["CL010"]


def test_a_read_that_failed_judges_files_alone(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    class Broken(model.Project):  # type: ignore[misc, valid-type]
        def __init__(self, *args, **kwargs) -> None:
            raise OSError("unreadable")

    monkeypatch.setattr(model, "Project", Broken)
    (tmp_path / "k.cl").write_text(_KERNEL)
    server = lsp.CllintServer()
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    monkeypatch.setattr(server, "window_log_message", lambda *a: None)
    assert "CL010" in _codes(server, tmp_path / "k.cl")


def test_the_end_of_the_read_is_logged(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(_KERNEL)
    server = lsp.CllintServer()
    said: list[str] = []
    monkeypatch.setattr(server, "window_log_message", lambda params: said.append(params.message))
    monkeypatch.setattr(server, "_roots", lambda: [tmp_path])
    server.project_for(tmp_path / "k.cl")
    done, _ = server._reading[tmp_path]
    assert done.wait(30)
    assert any("workspace read" in m and str(tmp_path) in m for m in said), said
