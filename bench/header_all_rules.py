"""Every default rule's reports on the clang-clean corpus files whose headers cllint reads.

bench/header_noise.py counts the semantic family on those files; this script lints the same
files (clang-19's verdicts from its cache: OpenCL C 1.2 or 2.0 as they stand, or 1.2 with the
macro-like `-D`s that make clang accept them) with the default rule set, and writes every report
as JSON, so two revisions can be compared: a report the later one adds on a file clang accepts
is a false alarm.

    .venv/bin/python bench/header_all_rules.py --split tune --out before.json
    .venv/bin/python bench/header_all_rules.py --split tune --out after.json --compare before.json

`--off` lints with the header types off (the model as before them) in the same tree; `--unclean`
also lints the files clang rejects (OpenCL C 1.2, no -D): what changes there is to be read.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import Counter
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent.parent))
sys.path.insert(0, str(BENCH))

from corpus import split_of  # noqa: E402
from header_noise import CACHE, PROJECTS, extract, kernel_files  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.preprocessor.view import build_view  # noqa: E402
from cllint.analysis.semantic.headers import closure  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402
from cllint.includes import FileIncludeResolver  # noqa: E402


def reports(split: str | None, unclean: bool = False) -> dict[str, list[str]]:
    """file -> its reports ("line:col code message"), for every clang-clean file that
    bench/header_noise.py has a verdict for."""
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    out: dict[str, list[str]] = {}
    for source, (_, include) in PROJECTS.items():
        root = extract(source)
        dirs = [root / d for d in include]
        for f, rel in kernel_files(source):
            if split and split_of(source, rel) != split:
                continue
            data = f.read_bytes()
            if b"include" not in data:
                continue
            view = build_view(str(f), data, target=Target.preset("CL1.2"), include_resolver=FileIncludeResolver(dirs))
            if not any(d.kind == "include" for d in view.directives) or closure(view) is None:
                continue
            key = hashlib.sha256(data + repr(sorted(str(d) for d in dirs)).encode() + str(f).encode()).hexdigest()
            std, defines = cache.get(key), None
            if std is None:
                defines = cache.get("D2:" + key)
                if defines is None and not unclean:
                    continue  # clang rejects it, or no verdict yet (run bench/header_noise.py)
                std = "CL1.2"
            opts = LintOptions(target=Target.preset(std), mode="target", include_paths=tuple(str(d) for d in dirs),
                               defines=tuple((n, v) for n, v in defines or ()))
            found = []
            for d in lint_source(str(f), data, opts, FileIncludeResolver(dirs)):
                line = data.count(b"\n", 0, d.span.start) + 1
                col = d.span.start - (data.rfind(b"\n", 0, d.span.start) + 1) + 1
                found.append(f"{line}:{col} {d.code} {d.message}")
            out[f"{source}/{rel}"] = found
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "validate"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--compare", type=Path, help="an earlier --out: print what was added and dropped")
    ap.add_argument("--off", action="store_true", help="header types off")
    ap.add_argument("--unclean", action="store_true", help="also the files clang rejects")
    args = ap.parse_args(argv)
    if args.off:
        import cllint.analysis.rules._model as model

        model.imported = lambda *a: None
    got = reports(args.split, args.unclean)
    args.out.write_text(json.dumps(got, indent=1, sort_keys=True))
    codes = Counter(r.split()[1] for rs in got.values() for r in rs)
    print(f"[{args.split or 'both halves'}] {len(got)} {'' if args.unclean else 'clang-clean '}files, {sum(codes.values())} reports {dict(codes)}")
    if args.compare:
        old = json.loads(args.compare.read_text())
        added = [(f, r) for f, rs in got.items() for r in rs if r not in old.get(f, [])]
        dropped = [(f, r) for f, rs in old.items() for r in rs if r not in got.get(f, [])]
        for f, r in added:
            print(f"+ {f}:{r}")
        for f, r in dropped:
            print(f"- {f}:{r}")
        print(f"added {len(added)}, dropped {len(dropped)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
