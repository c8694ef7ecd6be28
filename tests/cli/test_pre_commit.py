"""The hook in .pre-commit-hooks.yaml, run by the real `pre-commit` on a temporary repo."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]


@pytest.mark.slow
def test_pre_commit_hook_fails_on_a_broken_kernel(tmp_path: Path) -> None:
    pre_commit = shutil.which("pre-commit") or str(Path(os.sys.executable).with_name("pre-commit"))
    repo = tmp_path / "repo"
    repo.mkdir()
    env = {**os.environ, "PRE_COMMIT_HOME": str(tmp_path / "pc-home"), "GIT_AUTHOR_NAME": "t",
           "GIT_AUTHOR_EMAIL": "t@t", "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@t"}
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True, env=env)
    (repo / "k.cl").write_text("kernel void k(global int *o) { o[0] = 1 }\n")
    (repo / "ok.cl").write_text("kernel void k(global int *o) { o[0] = 1; }\n")
    (repo / "readme.txt").write_text("o[0] = 1 }\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True, env=env)
    r = subprocess.run([pre_commit, "try-repo", str(ROOT), "cllint", "--all-files"], cwd=repo, env=env,
                       capture_output=True, text=True, timeout=900)
    out = r.stdout + r.stderr
    assert r.returncode == 1, out
    assert "k.cl:1:" in out and "CL001" in out
    assert "readme.txt" not in out and "ok.cl:" not in out
