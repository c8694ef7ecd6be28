"""`cllint rules`: every rule with its code, name and summary."""

from __future__ import annotations

import argparse
import json

from cllint.analysis.registry import all_rules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("rules", help="list every rule")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    rules = all_rules()
    if args.format == "json":
        print(json.dumps([
            {"code": c, "name": r.name, "severity": r.severity.value, "group": r.group.value,
             "fix": r.fix_availability.value, "summary": r.summary()}
            for c, r in rules.items()
        ], indent=2))
        return 0
    for code, r in rules.items():
        print(f"{code}  {r.name:<34} {r.summary()}")
    return 0
