"""First diagnostics when the editor opens darktable's basic.cl (issue 32): cold, re-opened, clangd-19.

Fresh server processes, one folder holding the file and its headers (as bench/lsp_latency.py
lays it out); each session: start, initialize, optionally wait `--after` seconds (the server's
warm-up), didOpen, time until the first publishDiagnostics. Servers, in alternating order:

- cold:   `cllint server` with an empty $XDG_CACHE_HOME each session (nothing kept on disk)
- reopen: `cllint server` with one $XDG_CACHE_HOME for all sessions (the first one fills it)
- base, base-reopen: with `--baseline DIR` (a tree laid out as bench/startup_bench.py says),
  cold and re-opened
- clangd-19, when installed

    .venv/bin/python bench/first_open.py [--reps 5] [--after 0] [--baseline DIR]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import lsp_latency as L  # noqa: E402

SERVER = "import sys; from cllint.cli.main import main; sys.exit(main(['server']))"


def session(cmd: list[str], env: dict[str, str], folder: Path, text: str, after: float) -> float:
    old = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        client = L.Client(cmd, cwd=str(folder))
    finally:
        os.environ.clear()
        os.environ.update(old)
    client.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {
        "textDocument": {"publishDiagnostics": {"versionSupport": True}}},
        "initializationOptions": {"diagnosticMode": "push"}})
    client.notify("initialized", {})
    time.sleep(after)
    path = folder / "main.cl"
    t0 = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "opencl",
                                                            "version": 1, "text": text}})
    first = client.published(path.as_uri(), 1, timeout=120) - t0
    client.close()
    return first * 1000


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--after", type=float, default=0.0, help="seconds between initialized and didOpen")
    ap.add_argument("--baseline", type=Path, metavar="DIR")
    args = ap.parse_args()
    text, label, headers = L.corpus_file()
    work = Path(tempfile.mkdtemp(prefix="cllint-first-open"))
    folder = work / "w"
    folder.mkdir()
    for name, data in headers.items():
        (folder / name).write_bytes(data)
    (folder / "compile_flags.txt").write_text(L.CLANGD_FLAGS)
    (folder / "main.cl").write_text(text)
    past = time.time_ns() - 60 * 10**9  # settled files: a result that read them may be kept
    for p in folder.iterdir():
        os.utime(p, ns=(past, past))
    py = [sys.executable, "-c", SERVER]
    kept = work / "kept"
    servers: list[tuple[str, list[str], dict[str, str] | None]] = [
        ("cold", py, {"XDG_CACHE_HOME": ""}), ("reopen", py, {"XDG_CACHE_HOME": str(kept)})]
    if args.baseline:
        base = str(args.baseline.resolve())
        servers.append(("base", py, {"XDG_CACHE_HOME": "", "PYTHONPATH": base}))
        servers.append(("base-reopen", py, {"XDG_CACHE_HOME": str(work / "kept-base"), "PYTHONPATH": base}))
    if shutil.which("clangd-19"):
        servers.append(("clangd-19", ["clangd-19", "--log=error"], None))
    times: dict[str, list[float]] = {name: [] for name, _, _ in servers}
    load0 = os.getloadavg()[0]
    for r in range(args.reps):
        for name, cmd, extra in servers if r % 2 == 0 else servers[::-1]:
            env = dict(os.environ)
            for k, v in (extra or {}).items():
                env[k] = v or tempfile.mkdtemp(dir=work)  # "": a fresh, empty cache
            times[name].append(session(cmd, env, folder, text, args.after))
    print(f"{label} with {len(headers)} headers; {args.reps} fresh servers each, didOpen {args.after:g} s after "
          f"initialized; {os.cpu_count()} cores, load {load0:.1f} -> {os.getloadavg()[0]:.1f}")
    for name, got in times.items():
        print(f"  {name:11s} first diagnostics median {statistics.median(got):6.1f} ms (each: "
              + ", ".join(f"{t:.0f}" for t in got) + ")")
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
