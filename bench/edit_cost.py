"""CPU per one-character edit through the incremental host (analysis/db.py), over many files:
what an editor pays per keystroke where functions have callers (the local rules' case).

Every tenth public-corpus file (bench/corpus.py) with at least six top-level bodies and under
400 KB; four edits each, spread over its function bodies (an `x` typed, then deleted; only the
typing is timed). Prints the total, p50, p95 and max, and the slowest edits with how many
functions each re-analysed (all rules / the local ones).

    .venv/bin/python bench/edit_cost.py [--every 10] [--edits 4] [--file F.cl] [--type TEXT]

`--type TEXT` types TEXT one character at a time at each place instead of one `x` (each
keystroke timed): `--type "f(a, b);"` leaves the code broken between the keystrokes, where
the host reads the revision from a fresh parse (issue 33).

To compare with an older tree in the same run, lay it out as bench/startup_bench.py's
`--baseline` says and run this script with `PYTHONPATH=DIR` from outside the checkout
(`cd / && PYTHONPATH=DIR /work/main/.venv/bin/python /work/main/bench/edit_cost.py`).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

from corpus import corpus_files  # noqa: E402
from incremental_bench import body_offsets  # noqa: E402

from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402


def edits(path: Path, n: int, typed: bytes = b"x") -> list[tuple[float, str, dict[str, int]]]:
    source = path.read_bytes()
    host = Host()
    host.set_file("f", source)
    host.snapshot().diagnostics("f")
    out = []
    for off in body_offsets(source, n):
        for k in range(len(typed)):
            t = time.process_time()
            host.apply_change(Change(edits={"f": [TextEdit(off + k, off + k, typed[k:k + 1])]}))
            snap = host.snapshot()
            snap.diagnostics("f")
            out.append((time.process_time() - t, path.name, snap.lint_stats("f")))
        host.apply_change(Change(edits={"f": [TextEdit(off, off + len(typed), b"")]}))
        host.snapshot().diagnostics("f")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--edits", type=int, default=4)
    ap.add_argument("--file", type=Path, help="one file instead (ten edits)")
    ap.add_argument("--type", default="x", help="the text typed at each place, one character at a time")
    args = ap.parse_args(argv)
    import cllint.analysis.db as db

    print(f"analysis from {Path(db.__file__).parent}")
    if args.file:
        files, n = [args.file], 10
    else:
        files = [p for p in corpus_files(fetch_missing=False)[:: args.every]
                 if (src := p.read_bytes()).count(b"{\n") >= 6 and len(src) <= 400_000]
        n = args.edits
    runs = sorted((r for p in files for r in edits(p, n, args.type.encode())), key=lambda r: r[0])
    times = [r[0] for r in runs]
    if not times:
        print("no edits (is bench/.cache/corpus fetched? .venv/bin/python bench/corpus.py)")
        return 1
    print(f"{len(times)} edits in {len(files)} files: total {sum(times):.2f} s, p50 {1000 * statistics.median(times):.1f} "
          f"ms, p95 {1000 * times[int(0.95 * (len(times) - 1))]:.1f} ms, max {1000 * times[-1]:.1f} ms")
    for t, name, stats in runs[-5:]:
        print(f"  {1000 * t:.0f} ms {name}: re-analysed {stats.get('reanalysed')} of {stats.get('functions')} "
              f"functions, local rules {stats.get('reanalysed_local', stats.get('reanalysed'))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
