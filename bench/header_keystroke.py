"""Keystroke cost of reading header types, in process: darktable's basic.cl with the headers it
includes beside it (bench/header_noise.py extracts them), typed into a `Host` whose include
resolver reads them, with the header types on and off (`--rounds` alternating runs each).

    .venv/bin/python bench/header_keystroke.py [--chars 30] [--rounds 3]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import lsp_latency as LL  # noqa: E402
from header_noise import extract  # noqa: E402

import cllint.analysis.rules._model as M  # noqa: E402
from cllint.analysis.db import Change, Host, TextEdit  # noqa: E402
from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.includes import FileIncludeResolver  # noqa: E402

_ON = M.imported


def run(path: Path, chars: int, on: bool) -> tuple[float, list[float]]:
    """(first full lint, per keystroke) in ms."""
    M.imported = _ON if on else (lambda *a: None)
    data = path.read_bytes()
    host = Host(LintOptions(), include_resolver=FileIncludeResolver([path.parent]))
    name = str(path)
    host.set_file(name, data)
    t = time.perf_counter()
    host.snapshot().diagnostics(name)
    first = (time.perf_counter() - t) * 1000
    row, col = LL.typing_point(data.decode(errors="replace"))
    off = len(b"\n".join(data.split(b"\n")[:row])) + 1 + col
    typed = (LL.TYPED * 4)[:chars]
    keys = []
    for i in range(chars):
        host.apply_change(Change(edits={name: [TextEdit(off + i, off + i, typed[i].encode())]}))
        t = time.perf_counter()
        host.snapshot().diagnostics(name)
        keys.append((time.perf_counter() - t) * 1000)
    return first, keys


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--chars", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    path = extract("darktable") / "usr/share/darktable/kernels/basic.cl"
    got: dict[bool, tuple[list[float], list[float]]] = {True: ([], []), False: ([], [])}
    for r in range(args.rounds):
        for on in ((True, False) if r % 2 == 0 else (False, True)):
            first, keys = run(path, args.chars, on)
            got[on][0].append(first)
            got[on][1].extend(keys)
    for on in (False, True):
        firsts, keys = got[on]
        p95 = statistics.quantiles(keys, n=20)[-1]
        print(f"header types {'on ' if on else 'off'}: keystroke p50 {statistics.median(keys):.2f} ms, "
              f"p95 {p95:.2f} ms ({len(keys)} keystrokes); first full lint median {statistics.median(firsts):.0f} ms")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
