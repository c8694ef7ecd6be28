"""`cllint check`'s paths: whether one is a glob is read without importing `glob` (~1 ms of every
start-up, its patterns compiled at import), the same answer as `glob.has_magic`. TUNE were run
while writing the reader, HELD_OUT only once it was done."""

from __future__ import annotations

import glob
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.cli import sources

TUNE = ["k.cl", "src/*.cl", "src/**/*.cl", "a?.cl", "[ab].cl", "plain/dir", "-", ""]
HELD_OUT = ["x[.cl", "weird]name.cl", "q*", "~/k.cl"]


@pytest.mark.parametrize("raw", TUNE)
def test_tune_magic_as_glob_says(raw: str) -> None:
    assert sources.has_magic(raw) is glob.has_magic(raw)


@pytest.mark.parametrize("raw", HELD_OUT)
def test_held_out_magic_as_glob_says(raw: str) -> None:
    assert sources.has_magic(raw) is glob.has_magic(raw)


def test_globs_still_expand(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "a.cl").write_text("kernel void a() {}\n")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.cl").write_text("kernel void b() {}\n")
    monkeypatch.chdir(tmp_path)
    assert sources.discover(["**/*.cl"], []) == [Path("a.cl"), Path("sub/b.cl")]
    assert sources.discover(["a.cl"], []) == [Path("a.cl")]


def test_a_plain_path_does_not_import_glob(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text("kernel void k() {}\n")
    code = ("import sys\nfrom cllint.cli.sources import discover\n"
            f"discover([{str(tmp_path / 'k.cl')!r}], [])\nprint('glob' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "False"
