"""`cllint builtins`: list the OpenCL C built-in function catalogue."""

from __future__ import annotations

import argparse
import json
import sys

from cllint.analysis.catalogue import Builtin, catalogue, spec_url


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("builtins", help="list the OpenCL C built-in functions",
                              description="List the built-in functions of OpenCL C with their "
                                          "overloads and requirements.")
    p.add_argument("names", nargs="*", metavar="NAME", help="only these functions")
    p.add_argument("--format", choices=["text", "json"], default="text")
    p.add_argument("--category", help="only functions of this category (math, atomic, image...)")
    p.set_defaults(func=run)


def _requires_text(req: tuple[tuple[str, ...], ...]) -> str:
    return " or ".join(" and ".join(alt) for alt in req)


def _as_json(b: Builtin) -> dict:
    overloads = []
    for o in b.overloads:
        item: dict = {"returns": o.returns, "params": [{"name": p.name, "type": p.type} for p in o.params]}
        if o.since is not None:
            item["since"] = o.since
        if o.requires is not None:
            item["requires"] = [list(a) for a in o.requires]
        overloads.append(item)
    return {"name": b.name, "category": b.category, "summary": b.summary, "since": b.since,
            "requires": [list(a) for a in b.requires], "deprecated": b.deprecated, "removed": b.removed,
            "spec": b.spec, "url": spec_url(b.spec), "overloads": overloads}


def run(args: argparse.Namespace) -> int:
    from cllint.cli.main import UsageError

    cat = catalogue()
    funcs = list(cat.functions.values())
    if args.category:
        known = sorted({f.category for f in funcs})
        if args.category not in known:
            raise UsageError(f"unknown category '{args.category}' (choose from {', '.join(known)})")
        funcs = [f for f in funcs if f.category == args.category]
    if args.names:
        missing = [n for n in args.names if n not in cat.functions]
        if missing:
            raise UsageError(f"not a built-in function: {', '.join(repr(n) for n in missing)}")
        funcs = [cat.functions[n] for n in args.names]
    if args.format == "json":
        json.dump([_as_json(f) for f in funcs], sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    out = []
    for f in funcs:
        tags = [f"since {f.since}"]
        if f.requires:
            tags.append(f"requires {_requires_text(f.requires)}")
        if f.deprecated:
            tags.append(f"deprecated by {f.deprecated}")
        out.append(f"{f.name} [{f.category}] {len(f.overloads)} overload(s); {'; '.join(tags)}")
        if args.names:  # detail for the functions asked for by name
            out.append(f"  {f.summary}")
            out.append(f"  {spec_url(f.spec)}")
            for o in f.overloads:
                params = ", ".join(f"{p.type} {p.name}" for p in o.params)
                extra = []
                if o.since:
                    extra.append(f"since {o.since}")
                if o.requires:
                    extra.append(f"requires {_requires_text(o.requires)}")
                out.append(f"    {o.returns} {f.name}({params})" + (f"  [{'; '.join(extra)}]" if extra else ""))
    sys.stdout.write("\n".join(out) + ("\n" if out else ""))
    return 0
