"""`cllint explain CODE`: the documentation of one rule."""

from __future__ import annotations

import argparse

from cllint.analysis.registry import rule
from cllint.cli.main import UsageError


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("explain", help="print the documentation of a rule")
    p.add_argument("code", metavar="CODE")
    p.set_defaults(func=run)


def render_doc(code: str) -> str:
    r = rule(code)
    if r is None:
        raise UsageError(f"unknown rule code '{code}' (see 'cllint rules')")
    head = f"# {r.code} {r.name}\n\nSeverity: {r.severity.value}. Fix: {r.fix_availability.value}.\n\n"
    return head + r.doc() + "\n"


def run(args: argparse.Namespace) -> int:
    print(render_doc(args.code), end="")
    return 0
