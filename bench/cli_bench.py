"""`cllint check` over the whole public corpus against `clang-19 -fsyntax-only` per file.

Same files, same run, same parallelism (2 workers unless --jobs): cllint is one
`cllint check --no-cache --exit-zero --format json --select CL <files>` (its own process
pool), clang-19 is one `clang-19 -x cl -Xclang -finclude-default-header -fsyntax-only FILE`
per file through a thread pool of --jobs subprocesses. Rounds alternate which tool goes
first; medians are reported with the load average. Also: a warm run (result cache filled
by a previous run, in a private XDG_CACHE_HOME), peak memory, diagnostics by code, and
which files clang accepts or rejects, so cllint's findings can be reviewed against it.

Both tools get the files as they are, with no per-project -D/-I flags: hashcat kernels
include their headers only under -DKERNEL_STATIC and a computed INCLUDE_PATH, darktable's
kernels include C headers that the corpus does not hold, so clang rejects many of them
(stopping at its 20-error limit) and the pass/fail table says so.

    .venv/bin/python bench/cli_bench.py [--every K] [--rounds N] [--jobs N]

Writes Markdown to stdout and bench/results/cli.md.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
from bench.corpus import CORPUS, corpus_files  # noqa: E402

RESULTS = HERE / "results" / "cli.md"
CLANG = "clang-19"
CLANG_FLAGS = ["-x", "cl", "-Xclang", "-finclude-default-header", "-fsyntax-only"]
CLLINT = [str(ROOT / ".venv" / "bin" / "cllint"), "check", "--exit-zero", "--format", "json", "--select", "CL"]


def _children(pid: int) -> list[int]:
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                kids.append(int(d))
    return kids


def _tree_rss_kib(pid: int) -> int:
    total, todo = 0, [pid]
    while todo:
        p = todo.pop()
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
        todo += _children(p)
    return total


def run_cllint(files: list[str], cache_home: str | None) -> dict:
    """One cllint invocation: wall time, peak RSS of its largest process (wait4) and of its
    whole process tree (sampled every 50 ms), and the parsed JSON diagnostics."""
    env = dict(os.environ)
    cmd = list(CLLINT)
    if cache_home is None:
        cmd.append("--no-cache")
    else:
        env["XDG_CACHE_HOME"] = cache_home
    with tempfile.TemporaryFile() as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen([*cmd, *files], stdout=out, stderr=subprocess.DEVNULL, env=env, cwd=ROOT)
        peak_tree, done = [0], threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak_tree[0] = max(peak_tree[0], _tree_rss_kib(proc.pid))
                done.wait(0.05)

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        done.set()
        sampler.join()
        out.seek(0)
        diagnostics = json.loads(out.read() or b"[]")
    if proc.returncode != 0:
        raise SystemExit(f"cllint exited {proc.returncode}")
    return {"wall": wall, "maxrss_mib": usage.ru_maxrss / 1024, "tree_mib": peak_tree[0] / 1024,
            "diagnostics": diagnostics}


# The least any tree-sitter linter pays: start Python, parse every file with cllint's parser on
# a pool of the same size (largest first), nothing else.
_PARSE_ONLY = """
import sys
from concurrent.futures import ProcessPoolExecutor
from cllint.grammar import parse

def one(path):
    with open(path, "rb") as f:
        return parse(f.read()).root_node.has_error

if __name__ == "__main__":
    files = sorted(sys.argv[2:], key=lambda p: -len(open(p, "rb").read()))
    with ProcessPoolExecutor(int(sys.argv[1])) as pool:
        sum(pool.map(one, files, chunksize=8))
"""


def run_parse_only(files: list[str], jobs: int) -> float:
    t0 = time.perf_counter()
    subprocess.run([str(ROOT / ".venv" / "bin" / "python"), "-c", _PARSE_ONLY, str(jobs), *files],
                   check=True, cwd=ROOT)
    return time.perf_counter() - t0


def _clang_one(path: str) -> tuple[str, int, float, str]:
    proc = subprocess.Popen([CLANG, *CLANG_FLAGS, path], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    first = next((line for line in err.splitlines() if ": error:" in line or ": fatal error:" in line), "")
    return path, proc.returncode, usage.ru_maxrss / 1024, first


def run_clang(files: list[str], jobs: int) -> dict:
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(_clang_one, files))
    wall = time.perf_counter() - t0
    return {"wall": wall, "maxrss_mib": max(r[2] for r in results),
            "status": {r[0]: (r[1], r[3]) for r in results}}


def source_of(path: str) -> str:
    return Path(path).relative_to(CORPUS.relative_to(ROOT)).parts[0]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--every", type=int, default=1, help="deterministic sample: every K-th file (sorted by path)")
    ap.add_argument("--rounds", type=int, default=2, help="cold rounds per tool, alternating which goes first")
    ap.add_argument("--jobs", type=int, default=2, help="clang-19 worker count (match cllint's pool: the core count)")
    args = ap.parse_args()
    if not shutil.which(CLANG):
        print(f"{CLANG} not found: apt-get install -y clang-19", file=sys.stderr)
        return 1

    paths = sorted(corpus_files())[:: args.every]
    files = [str(p.relative_to(ROOT)) for p in paths]
    lines = sum(p.read_bytes().count(b"\n") for p in paths)
    nbytes = sum(p.stat().st_size for p in paths)
    per_source = Counter(source_of(f) for f in files)
    load_before = os.getloadavg()
    commit_before = _commit()
    print(f"{len(files)} files, {lines:,} lines; load {load_before[0]:.2f}", file=sys.stderr, flush=True)

    cold, clang, ratios = [], [], []
    parse_only: list[float] = []
    for r in range(args.rounds):
        order = ["cllint", "clang"] if r % 2 == 0 else ["clang", "cllint"]
        for tool in order:
            if tool == "cllint":
                cold.append(run_cllint(files, None))
            else:
                clang.append(run_clang(files, args.jobs))
            print(f"round {r + 1} {tool}: {(cold if tool == 'cllint' else clang)[-1]['wall']:.1f} s "
                  f"(load {os.getloadavg()[0]:.2f})", file=sys.stderr, flush=True)
        ratios.append(clang[-1]["wall"] / cold[-1]["wall"])
        parse_only.append(run_parse_only(files, args.jobs))
    with tempfile.TemporaryDirectory(prefix="cllint-bench-cache-") as cache:
        fill = run_cllint(files, cache)
        warm = [run_cllint(files, cache)]
    load_after = os.getloadavg()

    cold_s = statistics.median(r["wall"] for r in cold)
    warm_s = statistics.median(r["wall"] for r in warm)
    clang_s = statistics.median(r["wall"] for r in clang)
    parse_s = statistics.median(parse_only)
    ratio = statistics.median(ratios)
    diags = cold[0]["diagnostics"]
    commit_after = _commit()
    same_results = diags == warm[-1]["diagnostics"]
    status = clang[0]["status"]

    by_code = Counter(d["code"] for d in diags)
    by_code_source: dict[str, Counter] = defaultdict(Counter)
    sev = {}
    files_by_code: dict[str, set] = defaultdict(set)
    for d in diags:
        by_code_source[d["code"]][source_of(d["path"])] += 1
        sev[d["code"]] = d["severity"]
        files_by_code[d["code"]].add(d["path"])
    cl_errors = {f for f in (d["path"] for d in diags if d["severity"] == "error")}

    out = [
        "# `cllint check` on the public corpus vs `clang-19 -fsyntax-only`",
        "",
        f"`.venv/bin/python bench/cli_bench.py{' --every %d' % args.every if args.every > 1 else ''}"
        f"{' --rounds %d' % args.rounds if args.rounds != 2 else ''}` at commit {commit_before}"
        f"{'' if commit_after == commit_before else f' (HEAD moved to {commit_after} during the run)'}: "
        f"{len(files)} files{' (every %d-th file by path)' % args.every if args.every > 1 else ''}, "
        f"{lines:,} lines, {nbytes / 1e6:.1f} MB ({', '.join(f'{s} {n}' for s, n in sorted(per_source.items()))}). "
        f"{os.cpu_count()} cores, shared machine: load average {load_before[0]:.2f} before, "
        f"{load_after[0]:.2f} after. Python {sys.version.split()[0]}.",
        "",
        f"- cllint: `cllint check --no-cache --exit-zero --format json --select CL <all files>` (one process, "
        f"its own pool of {os.cpu_count()} workers); warm = same without `--no-cache`, one run on a cache filled by the run before.",
        f"- clang: `clang-19 {' '.join(CLANG_FLAGS)} FILE`, one process per file, {args.jobs} at a time.",
        f"- {args.rounds} rounds alternating which tool goes first; times are medians, the ratio is the "
        "median of per-round clang/cllint ratios.",
        "",
        "| run | wall (s) | files/s | lines/s | clang time / this | peak RSS, largest process (MiB) | peak RSS, all processes (MiB) |",
        "|---|---:|---:|---:|---:|---:|---:|",
        f"| cllint cold (`--no-cache`) | {cold_s:.1f} | {len(files) / cold_s:.0f} | {lines / cold_s:,.0f} | "
        f"**{ratio:.2f}x** | {max(r['maxrss_mib'] for r in cold):.0f} | {max(r['tree_mib'] for r in cold):.0f} |",
        f"| cllint warm (cache) | {warm_s:.2f} | {len(files) / warm_s:.0f} | {lines / warm_s:,.0f} | "
        f"{clang_s / warm_s:.1f}x | {max(r['maxrss_mib'] for r in warm):.0f} | {max(r['tree_mib'] for r in warm):.0f} |",
        f"| floor: parse only (Python start-up and cllint's tree-sitter parser, same pool) | {parse_s:.2f} | "
        f"{len(files) / parse_s:.0f} | {lines / parse_s:,.0f} | {clang_s / parse_s:.1f}x | | |",
        f"| clang-19 -fsyntax-only | {clang_s:.1f} | {len(files) / clang_s:.0f} | {lines / clang_s:,.0f} | 1.00x | "
        f"{max(r['maxrss_mib'] for r in clang):.0f} | ≈{args.jobs} × largest |",
        "",
        f"Per round: cllint cold {_walls(cold)} s; clang {_walls(clang)} s; "
        f"ratios {', '.join(f'{x:.2f}' for x in ratios)}; cache fill {fill['wall']:.1f} s, warm {_walls(warm, 2)} s.",
        "",
        "The floor row is what any linter built on a tree-sitter parser pays before its first rule: "
        "a ratio to clang above it is out of reach cold, whatever the analysis costs.",
        "",
        "The warm run's diagnostics " + ("equal the cold run's." if same_results else
                                         "differ from the cold run's (the analysis code changed during the run)."),
        "",
        "## clang-19 verdict per source (no project flags)",
        "",
        "| source | files | clang accepts | clang rejects | clang accepts, cllint reports an error | clang rejects, cllint reports no error |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in sorted(per_source):
        fs = [f for f in files if source_of(f) == s]
        ok = [f for f in fs if status[f][0] == 0]
        bad = [f for f in fs if status[f][0] != 0]
        out.append(f"| {s} | {len(fs)} | {len(ok)} | {len(bad)} | {sum(f in cl_errors for f in ok)} "
                   f"| {sum(f not in cl_errors for f in bad)} |")
    out += ["", "## cllint diagnostics by code (cold run, every rule)", "",
            "| code | severity | count | files | files clang accepts | " + " | ".join(sorted(per_source)) + " |",
            "|---|---|---:|---:|---:|" + "---:|" * len(per_source)]
    for code, n in sorted(by_code.items()):
        accepted = sum(status[f][0] == 0 for f in files_by_code[code])
        out.append(f"| {code} | {sev[code]} | {n} | {len(files_by_code[code])} | {accepted} | "
                   + " | ".join(str(by_code_source[code][s]) for s in sorted(per_source)) + " |")
    out += ["", f"Total {len(diags)} diagnostics in {len({d['path'] for d in diags})} files.", ""]

    # False-positive review: errors on files clang accepts are the first to look at.
    suspicious = [d for d in diags if d["severity"] == "error" and status[d["path"]][0] == 0]
    out += ["## cllint errors on files clang-19 accepts (first 30)", ""]
    out += [f"- `{_short(d['path'])}:{d['line']}:{d['column']}` {d['code']} {d['message']}" for d in suspicious[:30]]
    if not suspicious:
        out.append("None.")
    elif len(suspicious) > 30:
        out.append(f"- ... and {len(suspicious) - 30} more")
    # Why clang rejects: the first error, grouped by message shape.
    reasons: Counter = Counter()
    for f in files:
        rc, first = status[f]
        if rc != 0:
            msg = first.split("error:", 1)[-1].strip()
            reasons[(source_of(f), re.sub(r"'[^']*'", "'…'", msg))] += 1
    out += ["", "## Why clang-19 rejects files (first error, grouped; top 15)", "",
            "| source | first error | files |", "|---|---|---:|"]
    out += [f"| {s} | {m} | {n} |" for (s, m), n in reasons.most_common(15)]
    text = "\n".join(out) + "\n"
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text(text)
    print(text)
    return 0


def _walls(runs: list[dict], digits: int = 1) -> str:
    return ", ".join(f"{r['wall']:.{digits}f}" for r in runs)


def _short(path: str) -> str:
    return path.replace(str(CORPUS.relative_to(ROOT)) + "/", "")


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=ROOT).stdout.strip() or "?"
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
