#!/usr/bin/env python3
"""Model update + all analyses after a one-character edit inside one function of a
3,000-line kernel file, against a from-scratch build of the same text (issue 3).

    .venv/bin/python bench/incremental_bench.py [FILE] [--edits 30]

Default FILE: darktable's basic.cl from the public corpus (bench/corpus.py), 3,054 lines.
Times are CPU time of this process (time.process_time), medians over the edits; the
from-scratch figure parses, builds the preprocessor view and the model, and runs every rule.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from cllint.analysis.db import Change, Host, TextEdit

ROOT = Path(__file__).resolve().parents[1]
DEFAULT = ROOT / "bench/.cache/corpus/darktable/usr/share/darktable/kernels/basic.cl"


def body_offsets(source: bytes, n: int) -> list[int]:
    """Offsets at the start of indented statement lines, spread over the file."""
    lines = source.split(b"\n")
    pos, out = 0, []
    for line in lines:
        if line.startswith((b" ", b"\t")) and line.rstrip().endswith(b";") and b"#" not in line:
            out.append(pos + len(line) - len(line.lstrip()))
        pos += len(line) + 1
    step = max(1, len(out) // n)
    return out[::step][:n]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", nargs="?", type=Path, default=DEFAULT)
    ap.add_argument("--edits", type=int, default=30)
    args = ap.parse_args()
    if not args.file.exists():
        print(f"{args.file} missing: run `.venv/bin/python bench/corpus.py` first", file=sys.stderr)
        return 2
    source = args.file.read_bytes()

    scratch = []
    for _ in range(5):
        t0 = time.process_time()
        h = Host()
        h.set_file("f", source)
        h.snapshot().diagnostics("f")
        scratch.append(time.process_time() - t0)

    host = Host()
    host.set_file("f", source)
    host.snapshot().diagnostics("f")
    text = source
    edits, reanalysed = [], []
    for off in body_offsets(source, args.edits):
        # the same one-character insertion at each place, undone before the next
        for start, end, new in ((off, off, b"x"), (off, off + 1, b"")):
            t0 = time.process_time()
            host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))
            snap = host.snapshot()
            snap.diagnostics("f")
            dt = time.process_time() - t0
            text = text[:start] + new + text[end:]
            if new:
                edits.append(dt)
                reanalysed.append(snap.lint_stats("f").get("reanalysed", 0))
    assert text == source
    full, inc = statistics.median(scratch), statistics.median(edits)
    funcs = host.snapshot().lint_stats("f").get("functions", 0)
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True,
                            text=True).stdout.strip()
    print(f"# Incremental analysis: one-character edit vs from scratch\n")
    nlines = source.count(b"\n")
    name = args.file.relative_to(ROOT) if args.file.is_relative_to(ROOT) else args.file
    print(f"File: `{name}` ({nlines} lines, {funcs} functions); commit {commit}; CPU time, medians.\n")
    print("| | ms |\n|---|---:|")
    print(f"| from scratch (parse, preprocessor view, model, all rules) | {full * 1000:.1f} |")
    print(f"| one-character edit inside a function (edit, reparse, re-analysis) | {inc * 1000:.1f} |")
    print(f"| p95 of the edits | {sorted(edits)[int(len(edits) * 0.95) - 1] * 1000:.1f} |")
    print(f"\nRatio edit / from scratch: **{inc / full:.3f}** ({full / inc:.1f}x faster); "
          f"functions re-analysed per edit: median {statistics.median(reanalysed):.0f} of {funcs}.")
    print(f"\nCommand: `.venv/bin/python bench/incremental_bench.py --edits {args.edits}`")
    return 0


if __name__ == "__main__":
    sys.exit(main())
