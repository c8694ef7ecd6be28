"""Where the editor's lint time goes, per rule family (issue 19): the median milliseconds of
each family over `bench/lsp_latency.py`'s keystrokes (typed in process into a `Host`, after a
first full lint), and the split of a first full lint with a fresh `Host` (no memo), on the
same input (darktable's basic.cl, or another file).

    .venv/bin/python bench/family_split.py                    # keystrokes and first open
    .venv/bin/python bench/family_split.py --kernel colorin_unbound   # type in that function
    .venv/bin/python bench/family_split.py --profile cumtime  # cProfile 10 more keystrokes

Run it with another tree's package first on `PYTHONPATH` to compare two commits in one run.
"""

from __future__ import annotations

import argparse
import collections
import cProfile
import pstats
import re
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import lsp_latency as LL  # noqa: E402

import cllint.analysis.lint as L  # noqa: E402
from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402
from cllint.server.lsp import _lint_sample  # noqa: E402

_SPLIT: collections.Counter[str] = collections.Counter()


def _timed_run_rules(ctx, rules, budget=None):  # noqa: ANN001, ANN202 - lint.run_rules' signature
    """lint.run_rules without a budget, timing each rule into its family (module name)."""
    out = []
    for rule in rules:
        t = time.perf_counter()
        out.extend(rule().check(ctx))
        _SPLIT[rule.__module__.rsplit(".", 1)[-1]] += time.perf_counter() - t
    return out


def _typing_offset(text: str, kernel: str | None) -> int:
    lines = text.split("\n")
    if kernel is None:
        row, col = LL.typing_point(text)
    else:
        head = next(i for i, line in enumerate(lines) if re.search(rf"\b{re.escape(kernel)}\s*\(", line))
        row = next(i for i in range(head + 4, len(lines))
                   if lines[i].startswith((" ", "\t")) and lines[i].rstrip().endswith(";"))
        col = len(lines[row]) - len(lines[row].lstrip())
    return len("\n".join(lines[:row]).encode()) + 1 + col


def _medians(rows: list[dict[str, float]]) -> dict[str, float]:
    names = {k for r in rows for k in r}
    got = {k: statistics.median(r.get(k, 0.0) for r in rows) for k in names}
    return {k: round(v, 2) for k, v in sorted(got.items(), key=lambda kv: -kv[1]) if v >= 0.005}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--file", type=Path, help="input (default: the LSP bench's basic.cl)")
    ap.add_argument("--kernel", help="type inside this function (default: the LSP bench's typing point)")
    ap.add_argument("--chars", type=int, default=30)
    ap.add_argument("--opens", type=int, default=3)
    ap.add_argument("--profile", choices=("tottime", "cumtime"))
    args = ap.parse_args()

    L.run_rules = _timed_run_rules
    _lint_sample()
    text = args.file.read_text(errors="replace") if args.file else LL.corpus_file()[0]
    data = text.encode()

    opens = []
    for _ in range(args.opens):
        _SPLIT.clear()
        host = Host()
        host.set_file("f", data)
        t = time.perf_counter()
        host.snapshot().diagnostics("f")
        opens.append({"TOTAL": (time.perf_counter() - t) * 1000, **{k: v * 1000 for k, v in _SPLIT.items()}})
    print("first full lint (ms, median of", args.opens, "fresh hosts):", _medians(opens))

    host = Host()
    host.set_file("f", data)
    host.snapshot().diagnostics("f")
    off = _typing_offset(text, args.kernel)
    typed = (LL.TYPED * 4)[: args.chars + 10]
    keys: list[dict[str, float]] = []

    def type_chars(first: int, n: int) -> None:
        for i in range(first, first + n):
            host.apply_change(Change(edits={"f": [TextEdit(off + i, off + i, typed[i].encode())]}))
            _SPLIT.clear()
            t = time.perf_counter()
            host.snapshot().diagnostics("f")
            keys.append({"TOTAL": (time.perf_counter() - t) * 1000, **{k: v * 1000 for k, v in _SPLIT.items()}})

    type_chars(0, args.chars)
    print("per keystroke (ms, median of", args.chars, "):", _medians(keys))
    if args.profile:
        cProfile.runctx("type_chars(args.chars, 10)", globals(), locals(), "/tmp/family_split.prof")
        pstats.Stats("/tmp/family_split.prof").sort_stats(args.profile).print_stats(40)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
