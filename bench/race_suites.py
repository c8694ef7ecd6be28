"""CL21x against a public verifier's own labels: GPUVerify's OpenCL test suite (issue 31).

MEASUREMENT ONLY, never a source of cases or fixes: issue 31's held-out set draws its racy and
race-free kernels from public verification suites, so a change made from what this prints
would tune to the issue's held-out set. Read the totals, not the kernels.

Labels are the suite's: a kernel whose first line is `//xfail` and whose expected output names a
race is racy; a `//pass` kernel is race-free at the launch its second line gives (GPUVerify is
sound for that launch; benign same-value races tolerated, as CL210's policy does). Other
`//xfail` kernels (bounds, barrier divergence, annotations) are left out. cllint runs as a user
would, `cllint check --select CL21` on the suite's folder; a kernel counts as flagged when any
CL21x report falls in its file.

    .venv/bin/python bench/race_suites.py [--cllint PATH] [--launches] [--list]

`--launches` gives cllint the launch each kernel's second line declares (`--local_size=64
--num_groups=1`, `--global_size=[..]`) as a user whose host cllint cannot read would: a
`[[launch]]` per kernel in a `.cllint.toml` beside a copy of the suite (README, *Configuration*).
`--list` prints each missed racy and flagged race-free kernel's path and launch line (not its
body: read nothing else of it).

The suite comes from the `gpuverify` project of bench/projects.py (its snapshot extracted there).
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import tempfile
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from projects import ROOT, checkout  # noqa: E402


def labels(suite: Path) -> dict[Path, str]:
    out: dict[Path, str] = {}
    for f in sorted(suite.rglob("*.cl")):
        head = f.read_text(errors="replace").split("\n")[:6]
        first = head[0].strip().lower()
        if first.startswith("//xfail") and any("race" in line for line in head[1:]):
            out[f.relative_to(suite)] = "racy"
        elif first.startswith("//pass"):
            out[f.relative_to(suite)] = "race-free"
    return out


NARROWING = re.compile(r"--(?:warp-sync|only-divergence|only-intra-group|only-log|kernel-args|vcgen-opt=/checkArrays)")


def declared_launch(path: Path) -> dict[str, list[int]] | None:
    """The launch a suite kernel's second line gives GPUVerify: `local`, and `groups` or `global`."""
    lines = path.read_text(errors="replace").split("\n")
    line = lines[1] if len(lines) > 1 else ""
    out: dict[str, list[int]] = {}
    for flag, key in (("local_size", "local"), ("num_groups", "groups"), ("global_size", "global")):
        m = re.search(r"--" + flag + r"=\[?([\d,]+)\]?", line)
        if m:
            out[key] = [int(x) for x in m.group(1).split(",") if x]
    return out if "local" in out and ("groups" in out or "global" in out) else None


def with_launches(suite: Path, files: list[Path], into: Path) -> Path:
    """A copy of the suite with a `.cllint.toml` declaring each kernel's launch."""
    copy = into / "OpenCL"
    shutil.copytree(suite, copy)
    entries = []
    for f in files:
        got = declared_launch(suite / f)
        if got is None:
            continue
        sizes = "".join(f"{k} = {v}\n" for k, v in got.items())
        entries.append(f'[[launch]]\nsources = ["{f.as_posix()}"]\n{sizes}')
    (copy / ".cllint.toml").write_text("\n".join(entries))
    return copy


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cllint", default=str(ROOT / ".venv" / "bin" / "cllint"))
    ap.add_argument("--launches", action="store_true", help="declare each kernel's launch in a .cllint.toml")
    ap.add_argument("--list", action="store_true", help="print misses and false alarms (path, launch line)")
    args = ap.parse_args()
    root = checkout("gpuverify")
    if root is None:
        print("no snapshot: fetch github:mc-imperial/gpuverify", file=sys.stderr)
        return 1
    suite = root / "testsuite" / "OpenCL"
    want = labels(suite)
    with tempfile.TemporaryDirectory() as tmp:
        where = with_launches(suite, sorted(want), Path(tmp)) if args.launches else suite
        done = subprocess.run([args.cllint, "check", "--no-cache", "--exit-zero", "--select", "CL21", "--format",
                               "json", "."], cwd=where, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    flagged = {Path(r["path"]) for r in json.loads(done.stdout)}
    for label in ("racy", "race-free"):
        files = [f for f, v in want.items() if v == label]
        hit = sum(1 for f in files if f in flagged)
        what = "found" if label == "racy" else "flagged (false alarms)"
        print(f"{label:9} {len(files):4} kernels: {what} {hit} ({hit / max(1, len(files)):.3f})")
    # Race-free labels under options that narrow what GPUVerify checks or assumes (lockstep warps,
    # one array, one argument value, divergence or intra-group races only): read off the launch line.
    narrowed = [f for f, v in want.items() if v == "race-free" and NARROWING.search(
        (suite / f).read_text(errors="replace").split("\n")[1])]
    rest = [f for f, v in want.items() if v == "race-free" and f not in narrowed]
    hit = sum(1 for f in rest if f in flagged)
    print(f"race-free {len(rest):4} kernels under no narrowing option: flagged {hit} ({hit / max(1, len(rest)):.3f})")
    if args.list:
        for f, v in sorted(want.items()):
            if (v == "racy") != (f in flagged):
                line = (suite / f).read_text(errors="replace").split("\n")[1].strip()
                print(f"{'missed' if v == 'racy' else 'flagged':8} {f}  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
