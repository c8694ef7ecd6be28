"""cllint's compiler-grade errors (the CL0xx family) on realistic kernels, clang-19 as the oracle.

The kernels are tests/semantic/fixtures/realistic_r1/: 40-150-line files in the styles of public
OpenCL code, some clang-clean, the rest holding one to three everyday mistakes, some including a
local `common.h`. `labels.json` beside them holds every line clang-19 flags and, per line, the
codes that name the mistake. Each file goes through the CLI (`cllint check --format json`) with
its `-D` flags, `--std` and `-I` the folder, all default rules on.

Figures, per group (all files, without and with `#include`, tune and held-out):
- recall: clang error lines where cllint reports an error-severity diagnostic on the same line
  (of the CL0xx family; and, for "all rules", of any code); strict: the code is one that names
  the mistake (labels' `expect`); and, looser, a CL0xx report of any severity on the line;
- precision: the CL0xx reports that fall on a line clang flags (error or warning), over all;
- false alarms: reports on lines clang does not flag, listed as file:line:code:message.

    .venv/bin/python bench/semantic_realistic.py [--details] [--folder DIR]
"""

from __future__ import annotations

import argparse
import sys
import traceback
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "semantic"))

from realistic_cases import FOLDER, Kernel, Report, cllint, kernels, labels  # noqa: E402


def family(code: str) -> bool:
    """The compiler-grade family: syntax, preprocessing and semantic errors (CL0xx)."""
    return code.startswith("CL0")


@dataclass
class Tally:
    files: int = 0
    clean: int = 0
    error_lines: int = 0
    found: int = 0  # error lines with an error-severity CL0xx report
    strict: int = 0  # ... whose code names the mistake
    found_any: int = 0  # error lines with a CL0xx report of any severity (CL012 is a warning)
    found_all: int = 0  # error lines with an error-severity report of any code
    warning_lines: int = 0
    warnings_found: int = 0  # warning lines with a CL0xx report of any severity
    reports: int = 0  # CL0xx reports
    on_flagged: int = 0  # ... on a line clang flags
    reports_all: int = 0
    on_flagged_all: int = 0
    false: list[str] = field(default_factory=list)  # CL0xx reports off clang's lines
    off_all: list[str] = field(default_factory=list)  # other rules' reports off clang's lines
    missed: list[str] = field(default_factory=list)
    loose: list[str] = field(default_factory=list)  # found, but under another code
    crashed: list[str] = field(default_factory=list)


def score(k: Kernel, label: dict, reports: list[Report], tallies: list[Tally]) -> None:
    err_lines = {e["line"] for e in label["errors"]}
    warn_lines = {w["line"] for w in label["warnings"]} - err_lines
    flagged = err_lines | warn_lines
    expect = {m["line"]: (m["expect"], m["what"]) for m in label["mistakes"]}
    clang_msg = {d["line"]: d["message"] for d in label["warnings"] + label["errors"]}
    fam = [r for r in reports if family(r.code)]
    for t in tallies:
        t.files += 1
        t.clean += label["clean"]
        t.error_lines += len(err_lines)
        t.warning_lines += len(warn_lines)
        t.reports += len(fam)
        t.on_flagged += sum(r.line in flagged for r in fam)
        t.reports_all += len(reports)
        t.on_flagged_all += sum(r.line in flagged for r in reports)
        for line in sorted(err_lines):
            here = [r for r in fam if r.line == line and r.severity == "error"]
            codes, what = expect[line]
            t.found += bool(here)
            t.strict += any(r.code in codes for r in here)
            t.found_any += any(r.line == line for r in fam)
            t.found_all += any(r.line == line and r.severity == "error" for r in reports)
            if not here:
                said = "; ".join(f"{r.code} {r.severity} {r.message}" for r in reports if r.line == line)
                t.missed.append(f"{k.name}:{line}: want {'/'.join(codes)} ({what}); clang: {clang_msg[line]}"
                                + (f"; cllint: {said}" if said else ""))
            elif not any(r.code in codes for r in here):
                got = ", ".join(f"{r.code} {r.message}" for r in here)
                t.loose.append(f"{k.name}:{line}: want {'/'.join(codes)} ({what}); got {got}")
        for line in sorted(warn_lines):
            t.warnings_found += any(r.line == line for r in fam)
            if not any(r.line == line for r in fam):
                codes, what = expect[line]
                t.missed.append(f"{k.name}:{line}: (clang warning) want {'/'.join(codes)} ({what}); "
                                f"clang: {clang_msg[line]}")
        for r in reports:
            if r.line not in flagged:
                (t.false if family(r.code) else t.off_all).append(
                    f"{k.name}:{r.line}:{r.code}:{r.severity}: {r.message}")


def pct(a: int, b: int) -> str:
    return f"{a}/{b} = {a / b:.1%}" if b else "n/a"


def print_tally(name: str, t: Tally, details: bool) -> None:
    print(f"== {name}: {t.files} files ({t.clean} clang-clean), {t.error_lines} clang error lines, "
          f"{t.warning_lines} warning lines")
    print(f"  CL0xx recall, error on the line:     {pct(t.found, t.error_lines)}")
    print(f"  CL0xx recall, code names the mistake: {pct(t.strict, t.error_lines)}")
    print(f"  CL0xx report of any severity there:   {pct(t.found_any, t.error_lines)}")
    print(f"  CL0xx on clang's warning lines:       {pct(t.warnings_found, t.warning_lines)}")
    print(f"  CL0xx precision (on a flagged line):  {pct(t.on_flagged, t.reports)}; "
          f"false alarms {len(t.false)}")
    print(f"  all rules recall, error on the line:  {pct(t.found_all, t.error_lines)}")
    print(f"  all rules reports on a flagged line:  {pct(t.on_flagged_all, t.reports_all)}; "
          f"other rules off clang's lines {len(t.off_all)}")
    if t.crashed:
        print(f"  crashed on: {', '.join(t.crashed)}")
    if details:
        for title, rows in (("missed", t.missed), ("found under another code", t.loose),
                            ("CL0xx false alarms", t.false), ("other rules off clang's lines", t.off_all)):
            if rows:
                print(f"  {title}:")
                for row in rows:
                    print(f"    {row}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--details", action="store_true", help="list misses and false alarms")
    ap.add_argument("--folder", type=Path, default=FOLDER, help="a fixture folder with labels.json")
    args = ap.parse_args()

    labelled = labels(args.folder)
    groups = {g: Tally() for g in ("all files", "without #include", "with #include", "tune", "held out")}
    for k in kernels(args.folder):
        mine = [groups["all files"], groups["with #include" if k.includes else "without #include"],
                groups["held out" if labelled[k.name].get("split") == "heldout" else "tune"]]
        try:
            reports = cllint(k)
        except Exception:  # a crash is a finding: report it and go on
            print(f"cllint crashed on {k.name}:\n{traceback.format_exc()}")
            for t in mine:
                t.crashed.append(k.name)
            reports = []
        score(k, labelled[k.name], reports, mine)
    for name, t in groups.items():
        # Details once, under "all files"; the groups only split the figures.
        print_tally(name, t, args.details and name == "all files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
