"""`cllint check --no-cache` on whole tune projects, this tree against an older one (issue 32).

For each project folder under bench/.cache/projects (fetched by bench/projects.py), runs
`cllint check --no-cache --exit-zero --format json .` in the folder --reps times per tree,
alternated (older, this, older, ...) so that the load of a shared machine hits both alike, and
reports the medians of wall time and of CPU time (user + sys of the process and its pool
workers). It also says whether the two trees printed the same JSON, byte for byte: a speed
change must not change a report.

    .venv/bin/python bench/project_check_bench.py --baseline DIR [--reps 3] libclc hashcat ...

DIR is an older tree laid out as bench/startup_bench.py's `--baseline` says. "This tree" is
what `.venv/bin/python -m cllint` imports (set PYTHONPATH to measure another layout). Only tune
projects: bench/projects.py's held-out splits are never run here.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
PROJECTS = HERE / ".cache" / "projects"
ARGS = ["-m", "cllint", "check", "--no-cache", "--exit-zero", "--format", "json", "."]


def run(folder: Path, env: dict[str, str]) -> tuple[float, float, bytes]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([PYTHON, *ARGS], cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                          check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def main() -> int:
    sys.path.insert(0, str(HERE))
    from projects import split_of  # noqa: E402 - bench/projects.py, beside this script

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("projects", nargs="+")
    ap.add_argument("--baseline", type=Path, required=True, metavar="DIR")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    envs = {"older": {**os.environ, "PYTHONPATH": str(args.baseline.resolve())}, "this": dict(os.environ)}
    print("| project | older wall | this wall | older CPU | this CPU | this / older (CPU) | same JSON |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for name in args.projects:
        if split_of(name) != "tune":
            print(f"| {name} | held out: not run | | | | | |")
            continue
        folder = PROJECTS / name
        walls: dict[str, list[float]] = {k: [] for k in envs}
        cpus: dict[str, list[float]] = {k: [] for k in envs}
        outputs: dict[str, set[bytes]] = {k: set() for k in envs}
        for _ in range(args.reps):
            for tree, env in envs.items():
                wall, cpu, out = run(folder, env)
                walls[tree].append(wall)
                cpus[tree].append(cpu)
                outputs[tree].add(out)
        med = {k: (statistics.median(walls[k]), statistics.median(cpus[k])) for k in envs}
        same = outputs["older"] == outputs["this"] and len(outputs["this"]) == 1
        print(f"| {name} | {med['older'][0]:.1f} s | {med['this'][0]:.1f} s | {med['older'][1]:.1f} s | "
              f"{med['this'][1]:.1f} s | {med['this'][1] / med['older'][1]:.2f} | {'yes' if same else 'NO'} |",
              flush=True)
    print(f"\n{args.reps} alternated runs per tree, medians; {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f} at the end.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
