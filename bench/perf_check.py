"""Lint speed per rule family, with a before/after equivalence check of every diagnostic.

Lints a deterministic corpus sample (every K-th file of bench/.cache/corpus) twice:
with the default options (portability mode, CL1.2) and with `target=CL2.0, mode="target"`.
Every diagnostic (code, span, severity, message, notes, fix) goes to a JSON file; with
`--baseline` that file is written, otherwise it is compared against the baseline and any
difference is printed (exit status 1). Timing is CPU time (time.process_time) with each
family run alone on a fresh RuleContext (its rules share it, as in lint_tree), so a
family pays for the preprocessor view and the model it builds.

    .venv/bin/python bench/perf_check.py --baseline      # before a change
    .venv/bin/python bench/perf_check.py                 # after: compare and time
    .venv/bin/python bench/perf_check.py --profile CL1   # cProfile one family

Files live in bench/.cache/ (not committed).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))
from bench.corpus import CORPUS, corpus_files  # noqa: E402

from cllint.analysis.lint import LintOptions, lint_tree  # noqa: E402
from cllint.analysis.preprocessor.view import build_view  # noqa: E402
from cllint.analysis.rules.base import RuleContext  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402
from cllint.grammar import parse  # noqa: E402

CACHE = HERE / ".cache"
BASELINE = CACHE / "perf_baseline.json"
CURRENT = CACHE / "perf_current.json"


def configs() -> dict[str, LintOptions]:
    return {"default": LintOptions(), "cl20-target": LintOptions(target=Target.preset("CL2.0"), mode="target")}


def sample(every: int) -> list[Path]:
    return corpus_files(fetch_missing=False)[::every]


def _span(s) -> list:
    return [s.start, s.end]


def encode(d) -> dict:
    fix = None
    if d.fix is not None:
        fix = {
            "title": d.fix.title,
            "applicability": d.fix.applicability.value,
            "edits": [[_span(e.span), e.replacement] for e in d.fix.edits],
        }
    return {
        "code": d.code,
        "severity": d.severity.value,
        "span": _span(d.span),
        "message": d.message,
        "notes": [[_span(n.span), n.message] for n in d.notes],
        "fix": fix,
        "tags": [t.value for t in d.tags],
    }


def family(code: str) -> str:
    return code[:3]


def _forget_caches() -> None:
    """Drop module-level memos keyed by tree (features._LAST) so each family pays its own way."""
    mod = sys.modules.get("cllint.analysis.rules.features")
    if mod is not None and hasattr(mod, "_LAST"):
        mod._LAST = None


def run(files: list[Path], profile: str | None = None, families: bool = True) -> tuple[dict, dict[str, float], float]:
    """(diagnostics by config/file, CPU seconds per family, CPU seconds for whole lint_tree)."""
    results: dict[str, dict[str, list]] = {}
    per_family: dict[str, float] = defaultdict(float)
    whole = 0.0
    prof = cProfile.Profile() if profile else None
    for name, options in configs().items():
        out: dict[str, list] = {}
        by_family: dict[str, list] = defaultdict(list)
        for rule_cls in options.rules():
            by_family[family(rule_cls.code)].append(rule_cls)
        for path in files:
            rel = path.relative_to(CORPUS).as_posix()
            source = path.read_bytes()
            tree = parse(source)
            t0 = time.process_time()
            diags = lint_tree(str(path), source, tree, options)
            whole += time.process_time() - t0
            out[rel] = [encode(d) for d in diags]
            # each family alone, on a fresh context (own preprocessor view and model),
            # its rules sharing that context as they do in lint_tree
            for fam, fam_rules in by_family.items():
                if not families:
                    break
                if profile and not fam.startswith(profile[:3]):
                    continue
                _forget_caches()
                t0 = time.process_time()
                if prof:
                    prof.enable()
                view = build_view(str(path), source, target=options.target, defines=dict(options.defines))
                ctx = RuleContext(
                    file=str(path), source=source, tree=tree, target=options.target,
                    preprocessor=view, options={"mode": options.mode, "focus": None},
                )  # fmt: skip
                for rule_cls in fam_rules:
                    list(rule_cls().check(ctx))
                if prof:
                    prof.disable()
                per_family[fam] += time.process_time() - t0
        results[name] = out
    if prof:
        pstats.Stats(prof).sort_stats("cumulative").print_stats(45)
        pstats.Stats(prof).sort_stats("tottime").print_stats(35)
    return results, dict(per_family), whole


def view_time(files: list[Path]) -> float:
    t0 = time.process_time()
    for path in files:
        source = path.read_bytes()
        build_view(str(path), source, target=Target.preset("CL1.2"), defines={})
    return time.process_time() - t0


def compare(base: dict, cur: dict) -> int:
    bad = 0
    for cfg in base:
        for rel, diags in base[cfg].items():
            got = cur.get(cfg, {}).get(rel)
            if got != diags:
                bad += 1
                if bad <= 10:
                    print(f"DIFF {cfg} {rel}")
                    a = {json.dumps(d, sort_keys=True) for d in diags}
                    b = {json.dumps(d, sort_keys=True) for d in got or []}
                    for d in sorted(a - b)[:5]:
                        print("  -", d)
                    for d in sorted(b - a)[:5]:
                        print("  +", d)
                    if a == b:
                        print("  (same set, different order or multiplicity)")
    return bad


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--every", type=int, default=4, help="lint every K-th corpus file (default 4)")
    ap.add_argument("--baseline", action="store_true", help="write the baseline instead of comparing")
    ap.add_argument("--quick", action="store_true", help="compare only: no per-family timing")
    ap.add_argument("--profile", metavar="PREFIX", help="cProfile the family of codes starting with PREFIX (e.g. CL1)")
    args = ap.parse_args(argv)
    files = sample(args.every)
    results, per_family, whole = run(files, args.profile, families=not args.quick)
    if args.quick and args.baseline:
        ap.error("--baseline needs the family timings; drop --quick")
    target = BASELINE if args.baseline else CURRENT
    payload = {"every": args.every, "files": len(files), "results": results,
               "timing": {"families": per_family, "lint_tree": whole}}  # fmt: skip
    CACHE.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps(payload, sort_keys=True) + "\n")
    vt = view_time(files)
    ndiag = sum(len(v) for c in results.values() for v in c.values())
    print(f"{len(files)} files x {len(results)} configs, {ndiag} diagnostics -> {target}")
    base_timing = None
    if not args.baseline and BASELINE.exists():
        base = json.loads(BASELINE.read_text())
        base_timing = base.get("timing")
    print(f"{'family':8} {'before s':>9} {'after s':>9} {'speedup':>8}")
    for fam in sorted(per_family):
        b = base_timing["families"].get(fam) if base_timing else None
        a = per_family[fam]
        print(f"{fam:8} {b if b is not None else float('nan'):9.2f} {a:9.2f} {(b / a if b and a else float('nan')):8.2f}")
    b = base_timing["lint_tree"] if base_timing else None
    print(f"{'lint':8} {b if b is not None else float('nan'):9.2f} {whole:9.2f} {(b / whole if b else float('nan')):8.2f}"
          "   (whole lint_tree, both configs)")  # fmt: skip
    print(f"preprocessor view alone (one config): {vt:.2f}s")
    if args.baseline or args.profile:
        return 0
    if base_timing is None:
        print("no baseline; run with --baseline first")
        return 1
    bad = compare(base["results"], results)
    print("EQUIVALENT" if bad == 0 else f"{bad} file/config results DIFFER")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
