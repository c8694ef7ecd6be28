"""Barrier divergence (CL20x) and data races (CL21x) on realistic kernels, Oclgrind as the oracle.

The kernels are tests/rules/fixtures/realistic_sync/: 40-150-line files in the styles of public
OpenCL code (tiled GEMM, reductions, scans, histograms, stencils, transposes, sorts, N-body,
softmax, layer norm, pyramids), written apart from the analysis and from the other fixtures.
Each file starts with `// flags: -D...` (its build options), `// ndrange: ...` and
`// kernel: NAME`; `NAME.sim` beside it is the Oclgrind simulator file (buffers, sizes).
`labels.json` holds, per file, the intended bug (`divergence`, `race` or null) and what
`oclgrind-kernel --data-races` reported when the set was labelled: the barrier lines of each
"Work-group divergence detected (barrier)" and the lines of each data race. Every third file
of each kind (by name) is marked `heldout`; nothing was tuned on any of them.

Scoring runs the CLI (`cllint check --format json --select CL2 -D...`), so CL20x and CL21x with
each file's defines and default options otherwise:
- recall: buggy kernels where cllint reports the bug's family (divergence -> CL20x,
  race -> CL21x), per family and overall;
- false alarms: correct kernels with any CL2xx report, listed file:line:code:message;
- wrong family: reports on buggy kernels of the other family (shown, not scored).

    .venv/bin/python bench/sync_realistic.py [--details] [--oclgrind]

`--oclgrind` also reruns Oclgrind and checks every label still holds.
"""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "tests" / "rules" / "fixtures" / "realistic_sync"
LABELS = FOLDER / "labels.json"
HEADER = re.compile(r"^// (flags|ndrange|kernel):(.*)$", re.M)
# Oclgrind prints one block per finding: a heading line, then indented detail lines.
BLOCK = re.compile(r"^(\S[^\n]*)\n((?:[ \t][^\n]*\n?|\n(?=[ \t]))*)", re.M)
AT_LINE = re.compile(r"At line (\d+) \(column \d+\) of")
FAMILIES = ("divergence", "race")
# The targets of BENCHMARKS.md (issue 18): recall >= 95%, false alarms on <= 3% of kernels.
RECALL_TARGET = 0.95
FALSE_ALARM_TARGET = 0.03


@dataclass(frozen=True)
class Kernel:
    path: Path
    kernel: str
    flags: tuple[str, ...]
    ndrange: str

    @property
    def name(self) -> str:
        return self.path.name


def kernels(folder: Path = FOLDER) -> list[Kernel]:
    found = []
    for path in sorted(folder.glob("*.cl")):
        head = {key: value.strip() for key, value in HEADER.findall(path.read_text())}
        found.append(Kernel(path, head["kernel"], tuple(shlex.split(head.get("flags", ""))),
                            head["ndrange"]))
    return found


def labels(path: Path = LABELS) -> dict[str, dict]:
    return json.loads(path.read_text())


def family(code: str) -> str | None:
    """CL20x are the divergence rules (barriers and collectives); CL21x the race rules."""
    if code.startswith("CL20"):
        return "divergence"
    if code.startswith("CL21"):
        return "race"
    return None


# --- Oclgrind ---------------------------------------------------------------------------

OCLGRIND = shutil.which("oclgrind-kernel")


@dataclass
class OclgrindRun:
    divergence: set[int] = field(default_factory=set)  # barrier lines
    race: set[int] = field(default_factory=set)        # both sides' lines
    other: list[str] = field(default_factory=list)     # any other heading (errors, build failure)
    output: str = ""


def run_oclgrind(k: Kernel) -> OclgrindRun:
    """`oclgrind-kernel --data-races` on the kernel's .sim with its -D flags. The .sim names the
    .cl relative to the folder, so it runs there. Work-group divergence needs no flag."""
    cmd = [OCLGRIND or "oclgrind-kernel", "--build-options", " ".join(k.flags), "--data-races",
           "--max-errors", "100", k.path.with_suffix(".sim").name]
    proc = subprocess.run(cmd, cwd=k.path.parent, capture_output=True, text=True, timeout=120)
    run = OclgrindRun(output=proc.stdout + proc.stderr)
    for head, body in BLOCK.findall(run.output):
        lines = {int(n) for n in AT_LINE.findall(body)}
        if head.startswith("Work-group divergence detected"):
            run.divergence |= lines
        elif "data race" in head:
            run.race |= lines
        elif not head.startswith("Oclgrind: ") or "suppressing" not in head:
            run.other.append(head)
    if proc.returncode != 0:
        run.other.append(f"exit status {proc.returncode}")
    return run


def oclgrind_all(ks: list[Kernel]) -> dict[str, OclgrindRun]:
    with ThreadPoolExecutor(max_workers=4) as pool:
        return dict(zip((k.name for k in ks), pool.map(run_oclgrind, ks)))


def label_disagreements(k: Kernel, label: dict, run: OclgrindRun) -> list[str]:
    """Where Oclgrind's run no longer matches the label (empty when it holds)."""
    problems = [f"Oclgrind: {o}" for o in run.other]
    for fam in FAMILIES:
        want = set(label[fam]["lines"]) if label.get(fam) else set()
        got = getattr(run, fam)
        if want != got:
            problems.append(f"{fam}: labelled lines {sorted(want)}, Oclgrind {sorted(got)}")
    if label["bug"] and not label.get(label["bug"]):
        problems.append(f"bug '{label['bug']}' has no Oclgrind finding")
    return problems


# --- cllint -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Report:
    line: int
    code: str
    message: str

    @property
    def family(self) -> str | None:
        return family(self.code)


def cllint(k: Kernel) -> list[Report]:
    """cllint's CL2xx reports through the CLI, with the file's -D flags; a crash raises."""
    exe = Path(sys.executable).parent / "cllint"
    cmd = [str(exe), "check", "--format", "json", "--no-cache", "--exit-zero", "--select", "CL2",
           *k.flags, str(k.path)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    if run.returncode != 0:
        raise RuntimeError(f"cllint failed on {k.name} (exit {run.returncode}):\n{run.stderr}")
    return [Report(d["line"], d["code"], d["message"]) for d in json.loads(run.stdout)
            if Path(d["path"]).name == k.name]


@dataclass
class Score:
    buggy: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAMILIES, 0))
    found: dict[str, int] = field(default_factory=lambda: dict.fromkeys(FAMILIES, 0))
    correct: int = 0
    alarmed: int = 0
    misses: list[str] = field(default_factory=list)
    false_alarms: list[str] = field(default_factory=list)
    wrong_family: list[str] = field(default_factory=list)

    @property
    def recall(self) -> float:
        return sum(self.found.values()) / max(sum(self.buggy.values()), 1)

    @property
    def false_alarm_rate(self) -> float:
        return self.alarmed / max(self.correct, 1)

    def line(self) -> str:
        fams = ", ".join(f"{f} {self.found[f]}/{self.buggy[f]}" for f in FAMILIES)
        return (f"recall {sum(self.found.values())}/{sum(self.buggy.values())} = {self.recall:.1%} "
                f"({fams}); false alarms {self.alarmed}/{self.correct} = {self.false_alarm_rate:.1%}")


def score(ks: list[Kernel], labelled: dict[str, dict], reports: dict[str, list[Report]]) -> Score:
    s = Score()
    for k in ks:
        bug, got = labelled[k.name]["bug"], reports[k.name]
        shown = [f"{k.name}:{r.line}:{r.code}:{r.message}" for r in got]
        if bug is None:
            s.correct += 1
            s.alarmed += bool(got)
            s.false_alarms += shown
            continue
        s.buggy[bug] += 1
        hit = any(r.family == bug for r in got)
        s.found[bug] += hit
        if not hit:
            s.misses.append(f"{k.name} ({bug}): {labelled[k.name]['what']}")
        s.wrong_family += [line for r, line in zip(got, shown) if r.family != bug]
    return s


def measure(ks: list[Kernel] | None = None) -> dict[str, Score]:
    """Scores for the whole set and for each split ('tune', 'heldout')."""
    ks = kernels() if ks is None else ks
    labelled = labels()
    with ThreadPoolExecutor(max_workers=2) as pool:
        reports = dict(zip((k.name for k in ks), pool.map(cllint, ks)))
    out = {"all": score(ks, labelled, reports)}
    for split in ("tune", "heldout"):
        out[split] = score([k for k in ks if labelled[k.name]["split"] == split], labelled, reports)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--details", action="store_true", help="list misses and every report")
    parser.add_argument("--oclgrind", action="store_true", help="also check the labels under Oclgrind")
    args = parser.parse_args()
    ks, labelled = kernels(), labels()
    if args.oclgrind:
        runs = oclgrind_all(ks)
        bad = {k.name: label_disagreements(k, labelled[k.name], runs[k.name]) for k in ks}
        bad = {name: p for name, p in bad.items() if p}
        print(f"oclgrind: {len(ks) - len(bad)}/{len(ks)} labels hold")
        for name, problems in bad.items():
            print(f"  {name}: " + "; ".join(problems))
    scores = measure(ks)
    for split, s in scores.items():
        print(f"{split:8} {s.line()}")
    s = scores["all"]
    met = s.recall >= RECALL_TARGET and s.false_alarm_rate <= FALSE_ALARM_TARGET
    print(f"targets (recall >= {RECALL_TARGET:.0%}, false alarms <= {FALSE_ALARM_TARGET:.0%}): "
          f"{'met' if met else 'missed'}")
    if args.details:
        for title, rows in (("misses", s.misses), ("false alarms", s.false_alarms),
                            ("wrong-family reports on buggy kernels", s.wrong_family)):
            print(f"{title} ({len(rows)}):")
            for row in rows:
                print(f"  {row}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
