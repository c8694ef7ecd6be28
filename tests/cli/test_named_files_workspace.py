"""Files named on the command line with `--workspace DIR` (as the pre-commit hook runs: `cllint
check --workspace . kernels/k.cl` from the root, the changed files named) are read through the
program their host builds, as `cllint check .` and the editor read them. Without it a named
file's workspace stays its own folder. `heldout` scored once after the change (its first kernel
raced for real, every work-item adding into `v[0]`: the case was corrected, not the code)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

CASES = {
    "tune": ({
        ".git/HEAD": "ref: refs/heads/main\n",
        "app/build.py": 'import pyopencl as cl\nprg = cl.Program(ctx, open("../kernels/scale.cl").read())'
                        '.build(options=["-DTILE=16"])\n',
        "kernels/scale.cl": "kernel void scale(global float *x) { x[get_global_id(0) * TILE] *= 2.0f; }\n",
    }, "kernels/scale.cl"),
    "heldout": ({
        ".cllint.toml": "# this repository lints its kernels\n",
        "src/host.c": '#include <CL/cl.h>\nvoid b(cl_program p, cl_device_id d) {\n'
                      '  char *s = read_file("kern/sum.cl");\n'
                      '  clBuildProgram(p, 1, &d, "-DWIDTH=8", NULL, NULL);\n}\n',
        "kern/sum.cl": "kernel void sum(global int *v) { v[get_global_id(0)] *= WIDTH; }\n",
    }, "kern/sum.cl"),
}


def _check(root: Path, *args: str) -> list[tuple[str, str, int]]:
    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                           "--exit-zero", *args], cwd=root, capture_output=True, text=True, timeout=180)
    assert done.returncode == 0, done.stderr
    return sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(done.stdout)
                  if r["severity"] != "info")


def _write(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(text)


@pytest.mark.parametrize("case", sorted(CASES))
def test_a_named_file_reads_as_the_repository_builds_it(case: str, tmp_path: Path) -> None:
    files, named = CASES[case]
    _write(tmp_path, files)
    whole = [r for r in _check(tmp_path, ".") if r[0] == Path(named).name]
    assert whole == []  # the host's -D defines the name
    assert _check(tmp_path, "--workspace", ".", named) == whole


def test_without_a_workspace_a_named_file_stays_alone(tmp_path: Path) -> None:
    files, named = CASES["tune"]
    _write(tmp_path, files)
    # the folder of the file named is the workspace, the host unseen
    assert [c for _, c, _ in _check(tmp_path, named)] == ["CL012"]


def test_the_pre_commit_hook_names_the_workspace() -> None:
    hook = (Path(__file__).parents[2] / ".pre-commit-hooks.yaml").read_text()
    assert "--workspace ." in hook
