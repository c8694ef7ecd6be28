"""Start-up: `cllint check` on one small file against `clang-19 -fsyntax-only` on the same file.

Pre-commit passes a handful of files at a time, so what users feel there is the cost of one
process on one file. For each file, the commands below run --reps times each, interleaved
(cllint, clang, floor, cllint, ...), so load on the shared machine hits them alike:

- cllint: `cllint check --no-cache --exit-zero --format json FILE` (every default rule)
- clang:  `clang-19 -x cl -cl-std=CL3.0 -Xclang -finclude-default-header -fsyntax-only FILE`
- floor:  Python start-up plus cllint's tree-sitter parser on the file (`python -c ...`),
  the least a linter on this parser can pay

Reported per file: median and minimum wall time, median CPU time (user + sys of the child),
and the ratios cllint/clang and cllint/floor of the medians (the issue's target is
cllint/clang <= 1.5 on a one-line and on a ~1,500-line kernel).

Files: a one-line kernel (written to a temporary folder), a generated 1,500-line kernel
(`generated_kernel(1500)`, distinct helpers and kernels clang-19 accepts), and, when the corpus
is fetched, opencv's `conv_layer_spatial.cl` (1,879 lines, clang-19 accepts it).

    .venv/bin/python bench/startup_bench.py [--reps N] [--markdown bench/results/startup.md] [FILE...]

`--baseline DIR` adds rows for an older tree in the same run: DIR/cllint laid out as
installed (cllint/, then analysis, cli, server and grammar as its subpackages), e.g. from
`git archive COMMIT cllint analysis cli server`, with the current grammar/ copied in.
"""

from __future__ import annotations

import argparse
import compileall
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
PYTHON = str(ROOT / ".venv" / "bin" / "python")
CLLINT = [str(ROOT / ".venv" / "bin" / "cllint"), "check", "--no-cache", "--exit-zero", "--format", "json"]
CLANG = ["clang-19", "-x", "cl", "-cl-std=CL3.0", "-Xclang", "-finclude-default-header", "-fsyntax-only"]
FLOOR = [PYTHON, "-c", "import sys; from cllint.grammar import parse; parse(open(sys.argv[1], 'rb').read())"]
REAL = ROOT / "bench/.cache/corpus/opencv/main/modules/dnn/src/opencl/conv_layer_spatial.cl"
ONE_LINE = "__kernel void k(__global float *a) { a[get_global_id(0)] = 1.0f; }\n"


def generated_kernel(lines: int) -> str:
    """About `lines` lines of ordinary OpenCL C: helpers with loops and vector maths, and
    kernels using local memory and barriers, each with its own name."""
    out: list[str] = []
    i = 0
    while len(out) < lines:
        out += [
            f"float4 helper_{i}(__global const float4 *src, int n, float scale) {{",
            "    float4 acc = (float4)(0.0f);",
            "    for (int j = 0; j < n; ++j) {",
            "        acc += src[j] * scale;",
            "        if (acc.x > 1.0f) acc = normalize(acc);",
            "    }",
            "    return acc;",
            "}",
            "",
            f"__kernel void kernel_{i}(__global const float4 *in, __global float4 *out,",
            "                        __local float4 *tile, int n) {",
            "    int gid = get_global_id(0);",
            "    int lid = get_local_id(0);",
            "    tile[lid] = in[gid];",
            "    barrier(CLK_LOCAL_MEM_FENCE);",
            "    float4 v = tile[(lid + 1) % get_local_size(0)];",
            f"    out[gid] = v + helper_{i}(in, n, 0.5f) * (float)lid;",
            "}",
            "",
        ]
        i += 1
    return "\n".join(out[:lines]) + "\n"


BASELINE_ENV: dict[str, str] | None = None  # --baseline: PYTHONPATH of an older tree


def _time(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU (user + sys) seconds of one run of `cmd`, which must succeed."""
    env = None
    if cmd and cmd[0] == "baseline":
        cmd, env = [PYTHON, "-c", "import sys; from cllint.cli.main import main; sys.exit(main())",
                    *CLLINT[1:], *cmd[1:]], BASELINE_ENV
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    # Every command from "/": from the checkout, `cllint check` would read its pyproject.toml
    # (the configuration nearest the working folder), which the baseline, run from "/", did not.
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, cwd="/")
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"{cmd[0]} failed ({proc.returncode}): {proc.stderr.decode()[-400:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def measure(path: Path, reps: int) -> dict[str, dict[str, float]]:
    tools = {"cllint": CLLINT + [str(path)], "clang": CLANG + [str(path)], "floor": FLOOR + [str(path)]}
    if BASELINE_ENV is not None:
        tools["baseline"] = ["baseline", str(path)]
    for cmd in tools.values():
        _time(cmd)  # page cache, .pyc files
    walls: dict[str, list[float]] = {k: [] for k in tools}
    cpus: dict[str, list[float]] = {k: [] for k in tools}
    for _ in range(reps):
        for name, cmd in tools.items():
            w, c = _time(cmd)
            walls[name].append(w)
            cpus[name].append(c)
    return {k: {"median": statistics.median(walls[k]), "min": min(walls[k]),
                "cpu": statistics.median(cpus[k])} for k in tools}


def report(files: list[tuple[str, Path]], reps: int) -> str:
    load0 = os.getloadavg()[0]
    rows = []
    for label, path in files:
        m = measure(path, reps)
        lines = path.read_bytes().count(b"\n")
        c, k, f = m["cllint"], m["clang"], m["floor"]
        if "baseline" in m:
            b = m["baseline"]
            rows.append(f"| {label}, baseline tree | {lines:,} | {b['median'] * 1000:.0f} ({b['min'] * 1000:.0f}) | "
                        f"{k['median'] * 1000:.0f} ({k['min'] * 1000:.0f}) | {f['median'] * 1000:.0f} | "
                        f"{b['cpu'] * 1000:.0f} / {k['cpu'] * 1000:.0f} | "
                        f"**{b['median'] / k['median']:.2f}x** | {b['median'] / f['median']:.2f}x |")
        rows.append(f"| {label} | {lines:,} | {c['median'] * 1000:.0f} ({c['min'] * 1000:.0f}) | "
                    f"{k['median'] * 1000:.0f} ({k['min'] * 1000:.0f}) | {f['median'] * 1000:.0f} | "
                    f"{c['cpu'] * 1000:.0f} / {k['cpu'] * 1000:.0f} | "
                    f"**{c['median'] / k['median']:.2f}x** | {c['median'] / f['median']:.2f}x |")
    load1 = os.getloadavg()[0]
    head = [
        "# Start-up: `cllint check` on one file vs `clang-19 -fsyntax-only`",
        "",
        f"`.venv/bin/python bench/startup_bench.py --reps {reps}`; {os.cpu_count()} cores, load average "
        f"{load0:.2f} before, {load1:.2f} after; Python {platform.python_version()}.",
        "",
        "Times in ms: median of the runs (minimum in brackets), CPU = user + sys median.",
        "Ratios are of medians measured in the same run, interleaved.",
        "",
        "| file | lines | cllint | clang-19 | floor (start-up + parse) | CPU cllint / clang | cllint / clang | cllint / floor |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    return "\n".join(head + rows) + "\n"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=15)
    ap.add_argument("--markdown", type=Path, help="also write the table here")
    ap.add_argument("--baseline", type=Path, metavar="DIR",
                    help="also time an older tree: DIR holds a 'cllint' package laid out as installed")
    ap.add_argument("files", nargs="*", type=Path)
    args = ap.parse_args()
    global BASELINE_ENV
    # Byte-compile both trees first: with PYTHONDONTWRITEBYTECODE set (as on the shared
    # machine) a tree without .pyc files recompiles every module on every run, which
    # doubled the baseline's start-up (a10d9b6: 340 ms reported, 180 ms compiled).
    for tree in [ROOT / d for d in ("analysis", "cli", "cllint", "server")] + ([args.baseline] if args.baseline else []):
        compileall.compile_dir(tree, quiet=1)
    if args.baseline:
        BASELINE_ENV = {**os.environ, "PYTHONPATH": str(args.baseline.resolve())}
    with tempfile.TemporaryDirectory() as tmp:
        files: list[tuple[str, Path]] = [(p.name, p) for p in args.files]
        if not files:
            one, gen = Path(tmp, "one_line.cl"), Path(tmp, "generated_1500.cl")
            one.write_text(ONE_LINE)
            gen.write_text(generated_kernel(1500))
            files = [("one-line kernel", one), ("generated kernel", gen)]
            if REAL.exists():
                files.append(("opencv conv_layer_spatial.cl", REAL))
        text = report(files, args.reps)
    print(text, end="")
    if args.markdown:
        args.markdown.write_text(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
