"""Analysis time per keystroke for a kernel inside a Python string against the same kernel
in a .cl buffer, in-process (the server's work between didChange and publishDiagnostics,
without the transport): the .cl buffer goes through the incremental Host, the Python buffer
through analysis/embedded as server/embedded.py calls it. Issue 20's target: within 2x.

    .venv/bin/python bench/embedded_latency.py [--kernel FILE.cl] [--chars 40]
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from cllint.analysis.db import Change, Host
from cllint.analysis.embedded import lint_host
from cllint.analysis.lint import LintOptions

DEFAULT = Path(__file__).resolve().parents[1] / "examples" / "reduce.cl"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", type=Path, default=DEFAULT)
    ap.add_argument("--chars", type=int, default=40)
    args = ap.parse_args()
    kernel = args.kernel.read_bytes().replace(b"\\", b"\\\\").replace(b'"""', b'\\"\\"\\"')
    host = b'import pyopencl as cl\n\nSRC = r"""\n' + kernel + b'"""\nprg = cl.Program(ctx, SRC).build()\n'
    # type inside the last function body: before the kernel's final '}'
    at_cl = kernel.rstrip().rfind(b"}")
    at_py = host.find(b'"""\nprg') - (len(kernel) - at_cl)
    options = LintOptions()

    h = Host()
    h.apply_change(Change(files={"k.cl": kernel}, options={"k.cl": options}))
    h.snapshot().diagnostics("k.cl")
    cl_times, py_times = [], []
    text_cl, text_py = kernel, host
    for n in range(args.chars):
        ch = b"x" if n % 2 == 0 else b";"
        text_cl = text_cl[: at_cl + n] + ch + text_cl[at_cl + n :]
        t = time.perf_counter()
        h.apply_change(Change(files={"k.cl": text_cl}))
        h.snapshot().diagnostics("k.cl")
        cl_times.append(time.perf_counter() - t)
        text_py = text_py[: at_py + n] + ch + text_py[at_py + n :]
        t = time.perf_counter()
        lint_host("app.py", text_py, options)
        py_times.append(time.perf_counter() - t)
    cl_ms, py_ms = statistics.median(cl_times) * 1e3, statistics.median(py_times) * 1e3
    lines = kernel.count(b"\n")
    print(f"{args.kernel.name} ({lines} lines), {args.chars} keystrokes, median per keystroke: "
          f".cl {cl_ms:.1f} ms, Python string {py_ms:.1f} ms, ratio {py_ms / cl_ms:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
