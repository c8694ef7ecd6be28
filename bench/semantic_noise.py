"""Noise of the semantic family (CL010-CL049) on public files clang-19 compiles cleanly.

For each public-corpus file (bench/corpus.py), clang-19 checks it as OpenCL C 1.2, then 2.0
(`-fsyntax-only` with the default header, the file's folder as include path); files it accepts
under one of them are linted by cllint for that version in target mode, with the semantic rules
only. Every native error there is a false alarm; host-macro reports (CL012) are counted apart.
clang's verdicts are cached in bench/.cache/semantic_clang.json by content.

    .venv/bin/python bench/semantic_noise.py [--split tune|validate] [--list] [--limit N]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH.parent.parent))
sys.path.insert(0, str(BENCH))

from corpus import CORPUS, corpus_files, split_of  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.rules.semantic import RULES  # noqa: E402
from cllint.analysis.target import Target  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402

CACHE = BENCH / ".cache" / "semantic_clang.json"
STDS = ("CL1.2", "CL2.0")
CODES = tuple(r.code for r in RULES)
CLANG = shutil.which("clang-19")


def clang_std(path: Path, data: bytes | None = None, dirs: list[Path] | None = None) -> str | None:
    """The first version under which clang-19 accepts the file with no error, or None. `data`:
    the text to check (read from stdin; else the file), `dirs`: include paths (else its folder)."""
    source = ["-"] if data is not None else [str(path)]
    includes = [f"-I{d}" for d in (dirs if dirs is not None else [path.parent])]
    for std in STDS:
        run = subprocess.run([CLANG, "-x", "cl", f"-cl-std={std}", "-Xclang", "-finclude-default-header",
                              "-fsyntax-only", "-w", *includes, *source], input=data,
                             capture_output=True, timeout=120)
        if run.returncode == 0:
            return std
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--split", choices=("tune", "validate"))
    ap.add_argument("--list", action="store_true", help="print every report")
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args(argv)
    if CLANG is None:
        print("clang-19 is not installed", file=sys.stderr)
        return 2
    files = []
    for f in corpus_files():
        source, rel = f.relative_to(CORPUS).parts[0], f.relative_to(CORPUS / f.relative_to(CORPUS).parts[0])
        if args.split and split_of(source, rel.as_posix()) != args.split:
            continue
        files.append((source, f))
    if args.limit:
        files = files[:args.limit]
    cache = json.loads(CACHE.read_text()) if CACHE.exists() else {}
    todo = []
    for _, f in files:
        data = f.read_bytes()
        key = hashlib.sha256(data + str(f.parent).encode()).hexdigest()
        if key not in cache:
            todo.append((key, f, data))
    with ThreadPoolExecutor(2) as pool:
        for key, std in zip([t[0] for t in todo], pool.map(lambda t: clang_std(t[1], t[2]), todo)):
            cache[key] = std
    if todo:
        CACHE.write_text(json.dumps(cache))
    clean = errors = macros = 0
    by_code: Counter[str] = Counter()
    start = time.perf_counter()
    for source, f in files:
        data = f.read_bytes()
        std = cache[hashlib.sha256(data + str(f.parent).encode()).hexdigest()]
        if std is None:
            continue
        clean += 1
        opts = LintOptions(target=Target.preset(std), select=CODES, mode="target")
        for d in lint_source(str(f), data, opts):
            line = data.count(b"\n", 0, d.span.start) + 1
            if d.code == "CL012":
                macros += 1
            else:
                errors += 1
                by_code[d.code] += 1
            if args.list or d.code != "CL012":
                print(f"{f.relative_to(CORPUS)}:{line}: {d.code} {d.message}")
    took = time.perf_counter() - start
    print(f"files: {len(files)}  clang-clean: {clean}  native semantic reports: {errors} "
          f"{dict(by_code)}  host-macro reports (CL012): {macros}  lint time: {took:.1f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
