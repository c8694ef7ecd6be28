"""Noise on clean code: what the default rule set reports on public files clang-19 accepts.

For every corpus file (bench/corpus.py), clang-19 checks it for OpenCL C 3.0 with every
feature and extension (`-cl-std=CL3.0 -Xclang -cl-ext=+all`, spir64, the default header,
`-I` the file's folder). The files it accepts are linted by the default rule set in target
mode for the same target (`--std CL3.0 --features +all`), and reports are counted per
1,000 lines, by code, for the tune and the validate halves of the corpus (`split_of`).
clang's verdicts are cached in bench/.cache/noise/clang.json by content and flags.
`--features` names another 3.0 target, in clang's `-cl-ext` spelling for both sides; it is
compiled for nvptx64, since for SPIR clang's header defines some feature macros (read_write
images, work-group collectives, atomic scopes) whatever `-cl-ext` says.

    .venv/bin/python bench/noise.py                 # both halves, summary table
    .venv/bin/python bench/noise.py --features=-all,+__opencl_c_fp64   # a 3.0 device with fp64 only
    .venv/bin/python bench/noise.py --list CL309    # every CL309 report in the tune half
    .venv/bin/python bench/noise.py --half validate --list CL3
    .venv/bin/python bench/noise.py --std CL1.0 --features=-all   # an OpenCL C 1.0 device
    .venv/bin/python bench/noise.py --target CL3.0-all  # the preset: clang-19's spir64 at CL3.0 (issue 30)

Rules whose purpose is to flag code that compilers accept (CL2xx divergence, CL304
deprecations, CL407 recursion) are counted apart: they are allowed on clean code. Hints (CL304
since issue 30) are not counted: `cllint check` prints them only when selected by code.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import CORPUS, corpus_files, split_of  # noqa: E402

from cllint.analysis.diagnostics import Severity  # noqa: E402
from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402

CACHE = BENCH / ".cache" / "noise" / "clang.json"
CLANG_FLAGS = ["-x", "cl", "-cl-std=CL3.0", "-target", "spir64", "-Xclang", "-finclude-default-header",
               "-Xclang", "-cl-ext=+all", "-fsyntax-only"]


def clang_flags(features: str, std: str = "CL3.0") -> list[str]:
    """CLANG_FLAGS for the target `std` and `features` name (3.0 with `+all`: CLANG_FLAGS as they are)."""
    if features == "+all" and std == "CL3.0":
        return CLANG_FLAGS
    return ["-x", "cl", f"-cl-std={std}", "-target", "nvptx64", "-Xclang", "-finclude-default-header",
            "-Xclang", f"-cl-ext={features}", "-fsyntax-only"]
# Rules whose purpose is to report code that compilers accept (issue 18, "noise budget").
ALLOWED_ON_CLEAN = ("CL2", "CL304", "CL407")


def clang_accepts(path: Path, cache: dict[str, bool], clang: str, flags: list[str] = CLANG_FLAGS) -> bool:
    data = path.read_bytes()
    key = hashlib.sha256(data + " ".join(flags).encode()).hexdigest()
    if key not in cache:
        cmd = [clang, *flags, "-I", str(path.parent), str(path)]
        try:
            cache[key] = subprocess.run(cmd, capture_output=True, timeout=120).returncode == 0
        except subprocess.TimeoutExpired:
            cache[key] = False
    return cache[key]


def clean_files(jobs: int, flags: list[str] = CLANG_FLAGS) -> list[Path]:
    clang = shutil.which("clang-19")
    if clang is None:
        raise SystemExit("clang-19 not found: apt-get install -y clang-19")
    cache: dict[str, bool] = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    files = corpus_files(fetch_missing=False)
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        verdicts = list(pool.map(lambda p: clang_accepts(p, cache, clang, flags), files))
    CACHE.parent.mkdir(parents=True, exist_ok=True)
    CACHE.write_text(json.dumps(cache))
    return [p for p, ok in zip(files, verdicts) if ok]


def half_of(path: Path) -> str:
    source, _, rel = path.relative_to(CORPUS).as_posix().partition("/")
    return split_of(source, rel)


def lint_clean(path: Path, preview: bool = False, features: str = "+all", std: str = "CL3.0",
               preset: str | None = None):
    """The default rule set in target mode; hints (CL304 since issue 30) left out, as
    `cllint check` leaves them out unless selected by code."""
    target = Target.preset(preset) if preset else Target.preset(std).apply_overrides(features)
    options = LintOptions(target=target, mode="target", include_paths=(str(path.parent),), preview=preview)
    return [d for d in lint_source(str(path), path.read_bytes(), options)
            if getattr(Severity, "HINT", None) is not d.severity]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("tune", "validate", "both"), default="both")
    ap.add_argument("--list", metavar="PREFIX", help="print every report whose code starts with PREFIX")
    ap.add_argument("--jobs", type=int, default=2, help="clang processes at once")
    ap.add_argument("--preview", action="store_true", help="also run preview rules")
    ap.add_argument("--features", default="+all", help="the target's features, as clang's -cl-ext (default +all)")
    ap.add_argument("--std", default="CL3.0", help="the target's OpenCL C version (CL1.0..CL3.0; not CL3.0: nvptx64)")
    ap.add_argument("--target", metavar="PRESET", help="lint for this preset instead (CL3.0-all: clang-19's spir64 "
                    "at CL3.0, checked with the default flags; issue 30)")
    args = ap.parse_args(argv)
    flags = CLANG_FLAGS if args.target else clang_flags(args.features, args.std)
    files = clean_files(args.jobs, flags)
    halves = ("tune", "validate") if args.half == "both" else (args.half,)
    print(f"clang-19 accepts {len(files)} of {len(corpus_files(fetch_missing=False))} corpus files "
          f"({' '.join(flags)})")
    for half in halves:
        chosen = [p for p in files if half_of(p) == half]
        lines = 0
        by_code: Counter[str] = Counter()
        gating_lines: set[tuple[Path, int]] = set()  # lines with a CL301-CL303 report
        for path in chosen:
            lines += path.read_bytes().count(b"\n") + 1
            for d in lint_clean(path, args.preview, args.features, args.std, args.target):
                by_code[d.code] += 1
                if d.code in ("CL301", "CL302", "CL303"):
                    gating_lines.add((path, path.read_bytes().count(b"\n", 0, d.span.start)))
                if args.list and d.code.startswith(args.list.upper()):
                    line = path.read_bytes().count(b"\n", 0, d.span.start) + 1
                    print(f"  {path.relative_to(CORPUS)}:{line}: {d.code} {d.message}")
        kloc = lines / 1000
        budget = sum(n for c, n in by_code.items() if not c.startswith(ALLOWED_ON_CLEAN))
        gating = sum(n for c, n in by_code.items() if c in ("CL301", "CL302", "CL303"))
        cl3 = sum(n for c, n in by_code.items() if c.startswith("CL3"))
        print(f"\n{half}: {len(chosen)} files, {lines} lines")
        print(f"  reports outside the allowed rules: {budget} ({budget / kloc:.3f} per 1,000 lines)")
        print(f"  gating reports (CL301-CL303): {gating} ({gating / kloc:.3f} per 1,000 lines), "
              f"on {len(gating_lines)} lines ({len(gating_lines) / kloc:.3f} per 1,000 lines)")
        print(f"  CL3xx reports: {cl3} ({cl3 / kloc:.3f} per 1,000 lines)")
        for code, n in sorted(by_code.items()):
            mark = "" if not code.startswith(ALLOWED_ON_CLEAN) else "  (allowed on clean code)"
            print(f"  {code}: {n} ({n / kloc:.3f} per 1,000 lines){mark}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
