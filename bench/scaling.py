"""Linear time: lint cost per byte from 1 KB to 4 MB, for several shapes of file (issue 19, item 4).

The target: per-byte time within 3x across sizes, for every shape. Each measurement runs in its
own process (one warm-up lint of the same shape at 512 bytes first, so start-up and first-use
costs such as decoding the built-ins the shape calls are not counted), times parse + every default rule with CPU time (`time.process_time`, less sensitive to
other load on a shared machine than wall time), and is killed after --timeout seconds, which the
table shows as a lower bound. No analysis budget is set: this measures the analysis, not the cap.

Shapes (each grown to the size asked):
- generated: ordinary helpers and kernels (`startup_bench.generated_kernel`), many functions
- one_function: one kernel whose body is N statements (a hashcat-style unrolled kernel)
- one_expression: one kernel whose body is one expression of N terms (`x + x + ...`)
- nested_calls: `fabs(fabs(...(x)...))`, N deep (capped by --max-depth: tree-sitter itself
  recurses on depth)
- nested_blocks: `if (x) { if (x) { ... } }`, N deep (capped likewise)
- macros: N object-like and function-like macros, each used once

    .venv/bin/python bench/scaling.py [--sizes 1K,16K,256K,1M,4M] [--shapes a,b] [--timeout S]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))
from startup_bench import generated_kernel  # noqa: E402

PYTHON = str(ROOT / ".venv" / "bin" / "python")

CHILD = r"""
import json, sys, time
from cllint.grammar import parse
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.target import Target
options = LintOptions(target=Target.preset("CL3.0"))
warm = open(sys.argv[2], "rb").read()
lint_tree("warm.cl", warm, parse(warm), options)
path = sys.argv[1]
source = open(path, "rb").read()
t0 = time.process_time()
found = lint_tree(path, source, parse(source), options)
print(json.dumps({"cpu": time.process_time() - t0, "diagnostics": len(found)}))
"""


def _grow(head: str, unit: str, tail: str, size: int) -> str:
    n = max(1, (size - len(head) - len(tail)) // len(unit))
    return head + unit * n + tail


def shape(name: str, size: int, max_depth: int) -> str:
    if name == "generated":
        lines = max(16, size // 34)  # about 34 bytes a line
        text = generated_kernel(lines)
        while len(text) > size and lines > 16:
            lines = lines * 9 // 10
            text = generated_kernel(lines)
        return text
    if name == "one_function":
        head = "__kernel void k(__global float *out, __global const float *in) {\n" \
               "    int i = get_global_id(0);\n    float a = in[i], b = 0.0f;\n"
        return _grow(head, "    b = b * 0.5f + a; a = fabs(a - b) + 1.0f; out[i] = a;\n", "}\n", size)
    if name == "one_expression":
        head = "__kernel void k(__global float *out, float x) {\n    out[0] = x"
        return _grow(head, " + x", ";\n}\n", size)
    if name == "nested_calls":
        head = "__kernel void k(__global float *out, float x) {\n    out[0] = "
        depth = min(max_depth, max(1, (size - len(head) - 8) // 6))
        return head + "fabs(" * depth + "x" + ")" * depth + ";\n}\n"
    if name == "nested_blocks":
        head = "__kernel void k(__global int *out, int x) {\n"
        depth = min(max_depth, max(1, (size - len(head) - 4) // 12))
        return head + "if (x) { " * depth + "out[0] = x;" + " }" * depth + "\n}\n"
    if name == "macros":
        out, i = [], 0
        body = []
        while sum(map(len, out)) + sum(map(len, body)) < size - 80:
            out.append(f"#define SCALE_{i} {i}.5f\n#define TWICE_{i}(v) ((v) * 2.0f + SCALE_{i})\n")
            body.append(f"    acc += TWICE_{i}(acc);\n")
            i += 1
        return "".join(out) + "__kernel void k(__global float *out) {\n    float acc = 0.0f;\n" \
            + "".join(body) + "    out[0] = acc;\n}\n"
    raise SystemExit(f"unknown shape {name!r}")


SHAPES = ["generated", "one_function", "one_expression", "nested_calls", "nested_blocks", "macros"]


def _size(word: str) -> int:
    scale = {"K": 1024, "M": 1024 * 1024}.get(word[-1].upper(), 1)
    return int(word[:-1] if scale > 1 else word) * scale


def measure(text: str, warm: str, timeout: float) -> tuple[float | None, int]:
    paths = []
    for content in (text, warm):
        with tempfile.NamedTemporaryFile("w", suffix=".cl", delete=False) as f:
            f.write(content)
        paths.append(f.name)
    try:
        proc = subprocess.run([PYTHON, "-c", CHILD, *paths], capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, 0
    finally:
        for path in paths:
            os.unlink(path)
    if proc.returncode != 0:
        raise SystemExit(f"lint failed: {proc.stderr[-600:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    return got["cpu"], got["diagnostics"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="1K,16K,256K,1M,4M")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    ap.add_argument("--timeout", type=float, default=300.0)
    ap.add_argument("--max-depth", type=int, default=200_000)
    args = ap.parse_args(argv)
    sizes = [_size(w) for w in args.sizes.split(",")]
    print(f"CPU seconds of parse + default rules (CL3.0), and microseconds per byte; load average "
          f"{os.getloadavg()[0]:.1f}\n")
    print("| shape | " + " | ".join(w for w in args.sizes.split(",")) + " | worst / best per byte |")
    print("|---|" + "---:|" * (len(sizes) + 1))
    worst = 0.0
    for name in args.shapes.split(","):
        cells, per_byte = [], []
        for size in sizes:
            text = shape(name, size, args.max_depth)
            cpu, _ = measure(text, shape(name, 512, args.max_depth), args.timeout)
            if cpu is None:
                cells.append(f"> {args.timeout:.0f} s")
                per_byte.append(args.timeout / len(text))
                continue
            per_byte.append(cpu / len(text))
            cells.append(f"{cpu:.3f} s ({1e6 * cpu / len(text):.1f})")
        ratio = max(per_byte) / min(per_byte)
        worst = max(worst, ratio)
        print(f"| {name} | " + " | ".join(cells) + f" | {ratio:.1f}x |", flush=True)
    print(f"\nworst shape: {worst:.1f}x (target: within 3x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
