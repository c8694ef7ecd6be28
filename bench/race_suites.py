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

    .venv/bin/python bench/race_suites.py [--cllint PATH]

The suite comes from the `gpuverify` project of bench/projects.py (its snapshot extracted there).
"""

from __future__ import annotations

import argparse
import json
import subprocess
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


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--cllint", default=str(ROOT / ".venv" / "bin" / "cllint"))
    args = ap.parse_args()
    root = checkout("gpuverify")
    if root is None:
        print("no snapshot: fetch github:mc-imperial/gpuverify", file=sys.stderr)
        return 1
    suite = root / "testsuite" / "OpenCL"
    want = labels(suite)
    done = subprocess.run([args.cllint, "check", "--no-cache", "--exit-zero", "--select", "CL21", "--format", "json",
                           "."], cwd=suite, capture_output=True, text=True, check=False)
    if done.returncode != 0:
        print(done.stderr, file=sys.stderr)
        return 1
    flagged = {Path(r["path"]) for r in json.loads(done.stdout)}
    for label in ("racy", "race-free"):
        files = [f for f, v in want.items() if v == label]
        hit = sum(1 for f in files if f in flagged)
        what = "found" if label == "racy" else "flagged (false alarms)"
        print(f"{label:9} {len(files):4} kernels: {what} {hit} ({hit / max(1, len(files)):.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
