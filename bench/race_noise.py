"""CL21x (data races) on the public corpus: every report, per half (`split_of`).

Every corpus file is linted with only CL21x selected, in portability mode with `-I` the
file's folder. A report is noise unless Oclgrind confirms the race (BENCHMARKS.md lists
the confirmed ones). Work was driven by the tune half only.

    .venv/bin/python bench/race_noise.py              # counts per half, and the tune half's reports
    .venv/bin/python bench/race_noise.py --half validate
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import CORPUS, corpus_files, split_of  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402


def half_of(path: Path) -> str:
    source, _, rel = path.relative_to(CORPUS).as_posix().partition("/")
    return split_of(source, rel)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--half", choices=("tune", "validate", "both"), default="tune",
                    help="whose reports to list (counts are printed for both)")
    args = ap.parse_args(argv)
    counts = {"tune": [0, 0, 0], "validate": [0, 0, 0]}  # files, lines, reports
    listed = []
    start = time.perf_counter()
    for path in corpus_files(fetch_missing=False):
        half = half_of(path)
        source = path.read_bytes()
        options = LintOptions(select=("CL21",), include_paths=(str(path.parent),))
        diags = lint_source(str(path), source, options)
        c = counts[half]
        c[0] += 1
        c[1] += source.count(b"\n")
        c[2] += len(diags)
        if args.half in (half, "both"):
            for d in diags:
                line = source.count(b"\n", 0, d.span.start) + 1
                listed.append(f"{path.relative_to(CORPUS)}:{line}: {d.code} {d.message}")
    for half, (files, lines, reports) in counts.items():
        print(f"{half}: {files} files, {lines} lines, {reports} CL21x reports")
    print(*listed, sep="\n")
    print(f"({time.perf_counter() - start:.1f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
