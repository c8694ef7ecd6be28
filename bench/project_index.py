"""The project model's cost (issue 29): building the workspace index of the largest project, and
keystrokes in a file whose program spans several sources, against the same file read alone.

    .venv/bin/python bench/project_index.py                     # both, on the tune projects
    .venv/bin/python bench/project_index.py --project hashcat   # the index of one project

Index: a fresh process per run (`--runs`), `Project([root])` plus every source's context, wall
time and the peak RSS it adds (ru_maxrss before and after). Keystrokes: a `Host` (the editor's
incremental database) with the file's program (prelude sources, host `-D` names) and without
it, alternating, typing `--chars` characters inside a function; the per-keystroke ratio is the
figure (same file, same run).
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import projects as P  # noqa: E402


def index_once(root: Path) -> dict:
    from cllint.project.model import Project

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t = time.perf_counter()
    project = Project([root])
    sources = [p for p in project.files if p.suffix in (".cl", ".clh", ".ocl", ".opencl")]
    contexts = project.contexts(sources)
    elapsed = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {"seconds": elapsed, "rss_mib": (after - before) / 1024, "files": len(project.files),
            "sources": len(sources), "with_prelude": sum(1 for c in contexts.values() if c.prelude)}


def keystrokes(path: Path, root: Path, chars: int, rounds: int) -> dict:
    import lsp_latency as LL

    from cllint.analysis.db import Change, Host, TextEdit
    from cllint.analysis.lint import LintOptions
    from cllint.includes import FileIncludeResolver
    from cllint.project.model import Project

    context = Project([root]).context(path)
    data = path.read_bytes()
    row, col = LL.typing_point(data.decode(errors="replace"))
    off = len(b"\n".join(data.split(b"\n")[:row])) + 1 + col
    typed = (LL.TYPED * 4)[:chars]
    got: dict[bool, list[float]] = {True: [], False: []}
    for r in range(rounds):
        for program in ((True, False) if r % 2 == 0 else (False, True)):
            options = context.apply(LintOptions()) if program else LintOptions()
            host = Host(options, include_resolver=FileIncludeResolver([path.parent]))
            name = str(path)
            host.set_file(name, data)
            host.snapshot().diagnostics(name)
            for i in range(chars):
                host.apply_change(Change(edits={name: [TextEdit(off + i, off + i, typed[i].encode())]}))
                t = time.perf_counter()
                host.snapshot().diagnostics(name)
                got[program].append((time.perf_counter() - t) * 1000)
    out = {"file": str(path.relative_to(root)), "prelude": len(context.prelude)}
    for program, keys in got.items():
        tag = "program" if program else "alone"
        out[f"{tag}_p50_ms"] = statistics.median(keys)
        out[f"{tag}_p95_ms"] = statistics.quantiles(keys, n=20)[-1]
    out["p50_ratio"] = out["program_p50_ms"] / out["alone_p50_ms"]
    out["p95_ratio"] = out["program_p95_ms"] / out["alone_p95_ms"]
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--project", help="index this project only (default: the largest tune project)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--chars", type=int, default=30)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--_index", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._index:  # the child process of one index run
        print(json.dumps(index_once(Path(args._index))))
        return 0
    tune = [n for n in sorted(P.PROJECTS) if P.split_of(n) == "tune"]
    roots = {n: r for n in tune if (r := P.checkout(n)) is not None}
    name = args.project or max(roots, key=lambda n: P.opencl_lines(roots[n]))
    import os
    import tempfile

    for label in ("cold", "warm"):  # cold: an empty index cache each run; warm: the second run's
        runs = []
        for _ in range(args.runs):
            with tempfile.TemporaryDirectory() as cache:
                env = {**os.environ, "XDG_CACHE_HOME": cache}
                for i in range(1 if label == "cold" else 2):
                    out = subprocess.run([sys.executable, __file__, "--_index", str(roots[name])], check=True,
                                         capture_output=True, text=True, env=env).stdout
                runs.append(json.loads(out))
        s = [r["seconds"] for r in runs]
        print(f"index {name} ({label} cache): {runs[0]['files']} files, {runs[0]['sources']} OpenCL sources "
              f"({runs[0]['with_prelude']} with a prelude); build + every context median "
              f"{statistics.median(s):.2f} s (min {min(s):.2f}), peak RSS added {max(r['rss_mib'] for r in runs):.0f} MiB")
    if args.project:
        return 0
    # the file whose program spans the most sources, among the tune projects' sources
    from cllint.project.model import Project

    best: tuple[int, Path, Path] | None = None
    for n, root in roots.items():
        if n == "hashcat":
            continue  # its prelude-free kernels only (computed includes)
        project = Project([root])
        srcs = [p for p in project.files if p.suffix in (".cl", ".opencl") and p.stat().st_size > 2000]
        for p, c in project.contexts(srcs).items():
            if c.prelude and (best is None or len(c.prelude) > best[0]):
                best = (len(c.prelude), p, root)
    if best is None:
        print("no file with a prelude")
        return 0
    k = keystrokes(best[1], best[2], args.chars, args.rounds)
    print(f"keystrokes in {k['file']} ({k['prelude']} sources before it): p50 {k['program_p50_ms']:.2f} ms "
          f"with its program, {k['alone_p50_ms']:.2f} ms alone (x{k['p50_ratio']:.2f}); "
          f"p95 {k['program_p95_ms']:.2f} vs {k['alone_p95_ms']:.2f} ms (x{k['p95_ratio']:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
