"""`bench/projects.py` scores a held-out project only where its split is named (issue 29's
split-before-looking rule): `--project pocl` alone is refused, as `--show` on one is; a tune
project is scored by name as before. Nothing is checked out: the refusal comes first."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench" / "projects.py"


def _projects():  # noqa: ANN202
    spec = importlib.util.spec_from_file_location("bench_projects", BENCH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_held_out_project_by_name_alone_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    projects = _projects()
    held = next(n for n in sorted(projects.PROJECTS) if projects.split_of(n) == "validate3")
    with pytest.raises(SystemExit) as exit_:
        projects.main(["--project", held, "--codes"])
    assert exit_.value.code == 2
    assert f"held out: {held}" in capsys.readouterr().err

