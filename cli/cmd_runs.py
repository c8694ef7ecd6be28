"""`cllint runs [FILE] [--kernel NAME]`: the run history kept in .cllint/runs.jsonl."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from cllint.cli.main import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser(
        "runs", help="list the kernel runs kept in .cllint/runs.jsonl",
        description="List the runs that 'cllint run', run on save and the editor's Run lens recorded in "
                    ".cllint/runs.jsonl (in the folder of the project's configuration, else FILE's folder, "
                    "else the current folder): per kernel, launch and device a sparkline of the median "
                    "times, then one line per run with its change against the previous run.")
    p.add_argument("file", metavar="FILE", nargs="?", help="only this source's runs")
    p.add_argument("-k", "--kernel", metavar="NAME", help="only this kernel's runs")
    p.add_argument("--format", choices=("text", "json"), default="text",
                   help="json: one object per run, as stored (samples left out), plus what it is compared with")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cllint.server.runner import history, report

    if args.file is not None:
        source = Path(args.file)
        if not source.is_file():
            raise UsageError(f"'{args.file}' is not a file")
        root = history.workspace_root(source)
        file = history.relative(source, root)
    else:
        root = history.workspace_root(Path.cwd())
        file = None
    found = history.read(root, file, args.kernel)
    for w in found.warnings:
        print(f"cllint: warning: {w}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report.runs_json(found, file, args.kernel), indent=2))
        return 0
    text = report.lines(found, file, args.kernel)
    if not text:
        what = " of ".join(x for x in (f"'{args.kernel}'" if args.kernel else "", file or "") if x)
        print(f"no runs{' of ' + what if what else ''} in {history.runs_file(root)}")
        return 0
    print("\n".join(text))
    return 0
