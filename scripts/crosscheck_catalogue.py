#!/usr/bin/env python3
"""Compare the built-in catalogue with the function names clang's opencl-c.h declares.

Usage: scripts/crosscheck_catalogue.py [HEADER] [--catalogue PATH] [--min PERCENT]

Prints coverage over all of clang's names and over clang's names outside vendor
extension blocks (`#if defined(cl_intel_...)`, cl_amd_, cl_arm_ ...), then the misses
(in clang, not in the catalogue) and the extras (in the catalogue, not in clang).
Exits 1 when the core coverage is below --min.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DEFAULT_HEADER = Path("/usr/lib/llvm-19/lib/clang/19/include/opencl-c.h")
DEFAULT_CATALOGUE = REPO / "analysis" / "data" / "builtins.json"
VENDOR = re.compile(r"\bcl_(intel|amd|arm|img|qcom|nv|altera|ext)_\w+")


def clang_names(header: Path) -> dict[str, bool]:
    """Function names declared `__ovld` in the header -> True if every declaration sits in a vendor block."""
    stack: list[bool] = []
    names: dict[str, bool] = {}
    pending = ""
    for line in header.read_text(encoding="utf-8", errors="replace").splitlines():
        s = line.strip()
        if s.startswith("#if"):
            stack.append(bool(VENDOR.search(s)))
            continue
        if s.startswith("#endif"):
            if stack:
                stack.pop()
            continue
        if s.startswith(("#else", "#elif")) or s.startswith("#"):
            continue
        if "__ovld" in s or pending:
            pending += " " + s
            if ";" not in s and "{" not in s:
                continue
            m = re.search(r"(\w+)\s*\(", re.sub(r"__attribute__\s*\(\([^)]*\)\)", "", pending))
            pending = ""
            if m:
                vendor = any(stack)
                names[m.group(1)] = names.get(m.group(1), True) and vendor
    return names


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("header", nargs="?", type=Path, default=DEFAULT_HEADER)
    ap.add_argument("--catalogue", type=Path, default=DEFAULT_CATALOGUE)
    ap.add_argument("--min", type=float, default=98.0, help="minimum core coverage in percent")
    args = ap.parse_args(argv)
    if not args.header.is_file():
        print(f"crosscheck: header not found: {args.header} (apt-get install libclang-common-19-dev)",
              file=sys.stderr)
        return 2
    ours = {f["name"] for f in json.loads(args.catalogue.read_text(encoding="utf-8"))["functions"]}
    clang = clang_names(args.header)
    core = {n for n, vendor in clang.items() if not vendor}
    all_cov = 100.0 * len(ours & set(clang)) / len(clang)
    core_cov = 100.0 * len(ours & core) / len(core)
    print(f"clang names: {len(clang)} ({len(core)} outside vendor extension blocks)")
    print(f"catalogue names: {len(ours)}")
    print(f"coverage, all clang names: {all_cov:.2f}%")
    print(f"coverage, non-vendor clang names: {core_cov:.2f}%")
    misses = sorted(core - ours)
    vendor_misses = sorted(set(clang) - core - ours)
    extras = sorted(ours - set(clang))
    print(f"misses ({len(misses)}): {' '.join(misses)}")
    print(f"vendor-extension names not in the spec ({len(vendor_misses)}): {' '.join(vendor_misses)}")
    print(f"extras ({len(extras)}): {' '.join(extras)}")
    return 0 if core_cov >= args.min else 1


if __name__ == "__main__":
    sys.exit(main())
