"""CPU per keystroke on darktable's basic.cl through the incremental host, in-process (issue 32).

Types bench/lsp_latency.py's statement one character at a time where that bench types (so most
versions have a syntax error), each keystroke timed with `time.process_time` (the analysis is
single-threaded: CPU time moves far less with the load of a shared machine than wall time), from
the apply of the edit to the diagnostics of the version. The file's headers are beside it.

    .venv/bin/python bench/keystroke_cpu.py [--reparse-broken 0|1] [--runs 3] [--fresh-parse]

`--fresh-parse` reads a broken revision from a fresh parse of the whole file, as the host did
before analysis/reparse.py reparsed only the damaged items: the previous tree, in the same run.

For an older tree, lay it out as bench/startup_bench.py's `--baseline` says and run this script
with `PYTHONPATH=DIR` from outside the checkout.
"""

from __future__ import annotations

import argparse
import inspect
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import lsp_latency as L  # noqa: E402

from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402
from cllint.includes import FileIncludeResolver  # noqa: E402


def run(folder: Path, text: str, reparse_broken: int | None) -> list[float]:
    kw = {}
    if reparse_broken is not None and "reparse_broken" in inspect.signature(Host.__init__).parameters:
        kw["reparse_broken"] = bool(reparse_broken)
    host = Host(include_resolver=FileIncludeResolver(), **kw)
    f = str(folder / "main.cl")
    host.set_file(f, text.encode())
    host.snapshot().diagnostics(f)
    line, col = L.typing_point(text)
    offset = sum(len(x.encode()) + 1 for x in text.split("\n")[:line]) + col
    out = []
    for i, ch in enumerate(L.TYPED):
        t = time.process_time()
        host.apply_change(Change(edits={f: [TextEdit(offset + i, offset + i, ch.encode())]}))
        host.snapshot().diagnostics(f)
        out.append((time.process_time() - t) * 1000)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reparse-broken", type=int, choices=(0, 1), default=None)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--fresh-parse", action="store_true", help="broken revisions from a fresh parse of the file")
    args = ap.parse_args()
    if args.fresh_parse:
        import cllint.analysis.db as db

        db.reparse_fresh = lambda parser, tree, text: parser.parse(text)
    text, label, headers = L.corpus_file()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for name, data in headers.items():
            (folder / name).write_bytes(data)
        p50, p95 = [], []
        for _ in range(args.runs):
            got = sorted(run(folder, text, args.reparse_broken))
            p50.append(statistics.median(got))
            p95.append(got[max(0, int(0.95 * len(got)) - 1)])
    print(f"{label}: {len(L.TYPED)} keystrokes x {args.runs} runs, reparse_broken={args.reparse_broken}"
          f"{', fresh parse' if args.fresh_parse else ''}: "
          f"CPU p50 {statistics.median(p50):.1f} ms, p95 {statistics.median(p95):.1f} ms (medians of the runs)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
