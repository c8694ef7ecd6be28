"""Kernels a build file lists, read as the host builds them (tests/projects/build_lists/cases.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent / "build_lists"))
from cases import HELDOUT, TUNE  # noqa: E402


def _reports(root: Path) -> list[tuple[str, str]]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "."],
                       cwd=root, capture_output=True, text=True, timeout=180)
    assert r.returncode in (0, 1), r.stderr
    return sorted((Path(d["path"]).name, d["code"]) for d in json.loads(r.stdout) if d["severity"] != "info")


def _run(cases: dict, name: str, root: Path) -> None:
    files, expected = cases[name]
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    assert _reports(root) == sorted(expected)


@pytest.mark.parametrize("name", sorted(TUNE))
def test_a_build_list_is_read_as_the_host_builds_it(name: str, tmp_path: Path) -> None:
    _run(TUNE, name, tmp_path)


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout_build_list(name: str, tmp_path: Path) -> None:
    _run(HELDOUT, name, tmp_path)
