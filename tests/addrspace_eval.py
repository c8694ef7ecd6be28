"""Scores the CL1xx rules against clang-19 (not a test module; the tests import it).

    .venv/bin/python tests/addrspace_eval.py agree DIR_OR_FILES... [--std CL1.2,CL2.0]
        recall/precision by line: clang's address-space errors vs cllint's CL1xx diagnostics
    .venv/bin/python tests/addrspace_eval.py corpus [--std CL1.2]
        CL1xx diagnostics on the corpus files clang compiles without error (per 1,000 lines)
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLANG = shutil.which("clang-19")

# clang diagnostics that the CL1xx family covers (address spaces, 6.7; restrictions, 6.11).
IN_SCOPE = re.compile("|".join([
    r"changes address space of (nested )?pointer",
    r"non-overlapping address spaces",
    r"pointer arguments to kernel functions must reside",
    r"cannot be used as the type of a kernel parameter",
    r"struct kernel parameters may not contain pointers",
    r"kernel parameter cannot be declared as a pointer to a pointer",
    r"kernel must have void return type",
    r"return type cannot be qualified with address space",
    r"parameter may not be qualified with an address space",
    r"multiple address spaces specified for type",
    r"variables in the local address space can only be declared in the outermost scope",
    r"'__local' variable cannot have an initializer",
    r"non-kernel function variable cannot be declared in (local|constant) address space",
    r"variable in constant address space must be initialized",
    r"function scope variable cannot be declared in global address space",
    r"variables in function scope cannot be declared static",
    r"(program scope|extern|static local) variable must reside in",
    r"variables in the constant address space can only be declared in the outermost scope",
    r"can only be used as a function parameter in OpenCL",
    r"sampler type cannot be used with the __local and __global",
    r"global sampler requires a const or constant",
    r"declaring function return value of type .* is not allowed",
    r"type cannot be used to declare a structure or union field",
    r"array of .* type is invalid in OpenCL",
    r"pointer to type .* is invalid in OpenCL",
    r"declaring function parameter of type '(__private )?half' is not allowed",
    r"read-only variable is not assignable",
    r"field may not be qualified with an address space",
    r"the event_t type can only be used with __private",
    r"type cannot be used to declare a program scope variable",
    r"initializer element is not a compile-time constant",
    r"atomic variable can be initialized to a variable only in global address space",
    r"to function: 'to_(global|local|private)', expecting a generic pointer argument",
    # A built-in call no overload takes, where one would if only a pointer's space were right:
    # clang says so in a note, which `clang_errors` folds into the error.
    r"cannot pass pointer to address space",
]))
STD_EXT = {"CL3.0-all": "+all", "CL3.0": "-__opencl_c_generic_address_space,-__opencl_c_program_scope_global_variables,"
                    "-__opencl_c_pipes,-__opencl_c_device_enqueue"}
BEYOND = {"CL113", "CL115"}  # warnings beyond the compiler: not scored against clang
_DIAG = re.compile(r"^(.*?):(\d+):\d+: (error|warning): (.*)$")
_NOTE = re.compile(r"^.*?:\d+:\d+: note: (.*)$")
_AS_NOTE = re.compile(r"cannot pass pointer to address space")


def clang_errors(path: Path, std: str) -> list[tuple[int, str]] | None:
    """(line, message) of clang's errors in `path` itself; None when clang is missing or hangs."""
    if CLANG is None:
        return None
    cmd = [CLANG, "-x", "cl", f"-cl-std={std.split('-')[0]}", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           "-ferror-limit=0", "-Wno-everything", "-I", str(path.parent), str(path)]
    if std in STD_EXT:
        cmd[1:1] = ["-Xclang", f"-cl-ext={STD_EXT[std]}"]
    try:
        res = subprocess.run(cmd, capture_output=True, timeout=60, text=True, errors="replace")
    except subprocess.TimeoutExpired:
        return None
    out: list[tuple[int, str]] = []
    last_error = False  # the previous diagnostic was an error of this file: its notes follow
    for line in res.stderr.splitlines():
        m = _DIAG.match(line)
        if m and m.group(3) == "error" and Path(m.group(1)).name == path.name:
            out.append((int(m.group(2)), m.group(4)))
            last_error = True
        elif m:
            last_error = False
        elif last_error and (n := _NOTE.match(line)) and _AS_NOTE.search(n.group(1)) and \
                _AS_NOTE.search(out[-1][1]) is None:
            out[-1] = (out[-1][0], f"{out[-1][1]}: {n.group(1)}")
    if res.returncode != 0 and not out and "fatal error" in res.stderr:
        out.append((0, "fatal"))
    return out


def _lint(args: tuple[str, str]) -> set[tuple[str, int]]:
    path, std = args
    from cllint.analysis.lint import LintOptions
    from cllint.analysis.target import Target
    sys.path.insert(0, str(ROOT))
    from cli.engine import lint_source

    source = Path(path).read_bytes()
    opts = LintOptions(target=Target.preset(std if std != "CL3.0" else "CL3.0"), select=("CL1",),
                       include_paths=(str(Path(path).parent),), mode="target")
    try:
        diags = lint_source(path, source, opts)
    except RecursionError:
        return set()
    return {(d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags}


def lint_many(jobs: list[tuple[str, str]], workers: int | None = None) -> list[set[tuple[str, int]]]:
    with ProcessPoolExecutor(workers or os.cpu_count()) as pool:
        return list(pool.map(_lint, jobs, chunksize=4))


def clang_many(jobs: list[tuple[Path, str]]) -> list[list[tuple[int, str]] | None]:
    with ThreadPoolExecutor(os.cpu_count() or 4) as pool:
        return list(pool.map(lambda j: clang_errors(*j), jobs))


def agreement(files: Iterable[Path], stds: list[str]) -> dict[str, object]:
    jobs = [(f, s) for f in files for s in stds]
    clang = clang_many(jobs)
    ours = lint_many([(str(f), s) for f, s in jobs])
    tp = fn = fp = 0
    misses: list[str] = []
    extras: list[str] = []
    for (f, s), errs, got in zip(jobs, clang, ours, strict=True):
        if errs is None:
            continue
        want = {ln for ln, msg in errs if IN_SCOPE.search(msg)}
        any_err = {ln for ln, _ in errs}
        have = {ln for c, ln in got if c not in BEYOND}
        tp += len(want & have)
        for ln in sorted(want - have):
            fn += 1
            misses.append(f"{f}:{ln} [{s}] " + next(m for l2, m in errs if l2 == ln and IN_SCOPE.search(m)))
        for ln in sorted(have - any_err):
            fp += 1
            extras.append(f"{f}:{ln} [{s}] " + ",".join(sorted(c for c, l2 in got if l2 == ln)))
    recall = tp / (tp + fn) if tp + fn else 1.0
    precision = tp / (tp + fp) if tp + fp else 1.0
    return {"tp": tp, "fn": fn, "fp": fp, "recall": recall, "precision": precision, "misses": misses,
            "extras": extras}


def corpus(stds: list[str], limit: int | None = None) -> dict[str, object]:
    sys.path.insert(0, str(ROOT))
    from bench.corpus import corpus_files

    files = corpus_files(fetch_missing=False)[:limit]
    jobs = [(f, s) for f in files for s in stds]
    clang = clang_many(jobs)
    clean = [(f, s) for (f, s), errs in zip(jobs, clang, strict=True) if errs == []]
    ours = lint_many([(str(f), s) for f, s in clean])
    lines = sum(f.read_bytes().count(b"\n") + 1 for f, _ in clean)
    hits = [f"{f}:{ln} [{s}] {c}" for (f, s), got in zip(clean, ours, strict=True) for c, ln in sorted(got)]
    return {"files": len(clean), "lines": lines, "diagnostics": len(hits),
            "per_kloc": 1000 * len(hits) / max(lines, 1), "hits": hits}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["agree", "corpus"])
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--std", default="CL1.2,CL2.0")
    ap.add_argument("--limit", type=int)
    a = ap.parse_args(argv)
    stds = a.std.split(",")
    if a.mode == "agree":
        files = [q for p in a.paths for q in (sorted(Path(p).rglob("*.cl")) if Path(p).is_dir() else [Path(p)])]
        r = agreement(files, stds)
        for line in r["misses"]:  # type: ignore[union-attr]
            print("MISS", line)
        for line in r["extras"]:  # type: ignore[union-attr]
            print("EXTRA", line)
        print(f"files={len(files)} stds={stds} tp={r['tp']} fn={r['fn']} fp={r['fp']} "
              f"recall={r['recall']:.3f} precision={r['precision']:.3f}")
    else:
        r = corpus(stds, a.limit)
        for line in r["hits"]:  # type: ignore[union-attr]
            print("HIT", line)
        print(f"clean files={r['files']} lines={r['lines']} CL1xx={r['diagnostics']} "
              f"per_kloc={r['per_kloc']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
