"""A function the sources read before (an `--include`, a sibling the build joins first)
defines under a built-in's name is the user's: calls to it are not judged against the
built-in's overloads (CL014), as clang-19 judges the joined program."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

RUN = "kernel void run(global unsigned int *h) { h[0] = mix(h[0], h[1]); }\n"


def _codes(folder: Path, *args: str) -> list[str]:
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--exit-zero", "--format", "json",
                           "--select", "CL013,CL014", *args], cwd=folder, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return [r["code"] for r in json.loads(done.stdout)]


def test_a_prelude_function_named_like_a_builtin_is_called(tmp_path: Path) -> None:
    (tmp_path / "hash.cl").write_text("unsigned int mix(unsigned int a, unsigned int b) { return a * 31u + b; }\n")
    (tmp_path / "run.cl").write_text(RUN)
    assert _codes(tmp_path, "--include", "hash.cl", "run.cl") == []


def test_without_the_prelude_the_builtin_is_judged(tmp_path: Path) -> None:
    (tmp_path / "run.cl").write_text(RUN)
    assert _codes(tmp_path, "run.cl") == ["CL014"]
