"""Kernels inside host code on real projects (issue 20): files read, kernels found, share
parsed clean, diagnostics per rule, for the host files a folder search picks.

    .venv/bin/python bench/embedded.py [FOLDER ...]   # default: bench/.cache/embedded/*
    .venv/bin/python bench/embedded.py --show CL010    # print each report of that code
    .venv/bin/python bench/embedded.py --target device:0   # for the device that runs them (PoCL)

The default folders are GitHub snapshots exported with `git archive` (pinned commits in
bench/README.md): inducer/pyopencl (examples/, test/, the library), HandsOnOpenCL/
Exercises-Solutions (Python and C/C++ hosts) and benshope/PyOpenCL-Tutorial.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from cllint.analysis.embedded import find_kernels, lint_host
from cllint.analysis.embedded.search import worth_searching
from cllint.analysis.lint import LintOptions
from cllint.analysis.target import Target
from cllint.cli.locate import LineIndex
from cllint.cli.sources import discover
from cllint.grammar import parse

ROOT = Path(__file__).resolve().parent / ".cache" / "embedded"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folders", nargs="*")
    ap.add_argument("--show", metavar="CODE", help="print every report whose code starts with CODE")
    ap.add_argument("--target", help="a preset or device:N, as `cllint check --target` reads it")
    args = ap.parse_args()
    folders = args.folders or sorted(str(p) for p in ROOT.iterdir() if p.is_dir())
    options = LintOptions()
    if args.target:
        from cllint.cli.cmd_check import _device_reader

        name = args.target
        target = _device_reader(int(name[7:])) if name.startswith("device:") else Target.preset(name)
        options = LintOptions(target=target, mode="target")  # as the CLI does with --target
    for folder in folders:
        files = [p for p in discover([folder], []) if p.suffix not in (".cl", ".clh", ".ocl", ".opencl")]
        kernels = clean = 0
        codes: collections.Counter[str] = collections.Counter()
        for path in files:
            source = path.read_bytes()
            if not worth_searching(str(path), source):
                continue
            found = find_kernels(str(path), source)
            kernels += len(found)
            clean += sum(not parse(k.source).root_node.has_error for k in found)
            index = LineIndex(source)
            for d in lint_host(str(path), source, options):
                codes[d.code] += 1
                if args.show and d.code.startswith(args.show):
                    line, col = index.line_col(d.span.start)
                    print(f"{path}:{line}:{col}: {d.code} {d.message}")
        share = f"{100 * clean / kernels:.1f}%" if kernels else "-"
        print(f"{Path(folder).name}: {len(files)} host files, {kernels} kernels, {clean} parsed clean ({share}), "
              f"{sum(codes.values())} diagnostics {dict(sorted(codes.items()))}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
