"""Keystroke-to-diagnostics latency of `cllint server` against clangd-19, same file, same run.

A small JSON-RPC client over stdio: open a ~3,000-line kernel file (darktable's basic.cl
from bench/.cache/corpus when bench/corpus.py has fetched it, else a generated one), type
40 characters one by one inside a function, and time each didChange until the
publishDiagnostics carrying that version. Also: time to first diagnostics and the
server's RSS with 100 files open. Each server runs in its own temp folder holding the file,
the headers it includes (darktable's kernels/*.h from the cached .deb, when there) and a
`compile_flags.txt` that configures clangd for OpenCL C 3.0. Rounds alternate which
server goes first. Writes bench/results/lsp.md.

clangd-19 is optional: `apt-get install -y clangd-19` (Debian bookworm), then rerun.

    .venv/bin/python bench/lsp_latency.py [--chars 40] [--files 100] [--rounds 2]
"""

from __future__ import annotations

import argparse
import glob
import json
import os
import queue
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).parent
RESULTS = HERE / "results" / "lsp.md"
CLANGD_FLAGS = "-xcl\n-cl-std=CL3.0\n-Xclang\n-finclude-default-header\n"


def generated_kernel(lines: int = 3000) -> str:
    block = """
float helper_{i}(float x, float y) {{
    float acc = 0.0f;
    for (int k = 0; k < 8; ++k) {{
        acc += mad(x, y, (float)k);
    }}
    return acc;
}}

kernel void k_{i}(global float *out, global const float *in, local float *tile, int n) {{
    int gid = get_global_id(0);
    int lid = get_local_id(0);
    tile[lid] = gid < n ? in[gid] : 0.0f;
    barrier(CLK_LOCAL_MEM_FENCE);
    float v = helper_{i}(tile[lid], 2.0f);
    if (gid < n) {{
        out[gid] = v + tile[(lid + 1) % get_local_size(0)];
    }}
}}
"""
    n = max(1, lines // block.count("\n"))
    return "".join(block.format(i=i) for i in range(n))


def corpus_file() -> tuple[str, str, dict[str, bytes]]:
    """The input text, its name, and the files it includes (name -> bytes) where we have them."""
    for p in sorted((HERE / ".cache" / "corpus").rglob("basic.cl")) if (HERE / ".cache" / "corpus").exists() else []:
        text = p.read_text(errors="replace")
        named = set(re.findall(r'^\s*#\s*include\s*"([^"]+)"', text, re.MULTILINE))
        siblings = {n: (p.parent / n).read_bytes() for n in named if (p.parent / n).is_file()}
        return text, f"darktable {p.name}", {**siblings, **darktable_headers()}
    return generated_kernel(), "generated", {}


def darktable_headers() -> dict[str, bytes]:
    """darktable's kernels/*.h, which bench/corpus.py leaves out (it keeps .cl only); read
    from the .deb it cached, so that both servers see a file that compiles."""
    debs = sorted(glob.glob(str(HERE / ".cache" / "debs" / "darktable_*.deb")))
    if not debs or not shutil.which("dpkg-deb"):
        return {}
    with tempfile.TemporaryDirectory() as tmp:
        tar = subprocess.run(["dpkg-deb", "--fsys-tarfile", debs[-1]], capture_output=True, check=False).stdout
        subprocess.run(["tar", "-x", "-C", tmp, "--wildcards", "./usr/share/darktable/kernels/*.h"], input=tar,
                       capture_output=True, check=False)
        return {p.name: p.read_bytes() for p in Path(tmp).rglob("*.h")}


class Client:
    def __init__(self, cmd: list[str], cwd: str | None = None, env: dict[str, str] | None = None) -> None:
        self.proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=cwd,
                                     env=None if env is None else {**os.environ, **env})
        self.messages: queue.Queue = queue.Queue()
        self.next_id = 0
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        out = self.proc.stdout
        while True:
            length = 0
            while (line := out.readline()):
                line = line.strip()
                if not line:
                    break
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            if not length:
                return
            self.messages.put((time.perf_counter(), json.loads(out.read(length))))

    def send(self, obj: dict) -> None:
        data = json.dumps(obj).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(data) + data)
        self.proc.stdin.flush()

    def notify(self, method: str, params: dict) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict, timeout: float = 60) -> dict:
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        return self.wait(lambda m: m.get("id") == self.next_id and "method" not in m, timeout)[1]

    def wait(self, pred, timeout: float = 60) -> tuple[float, dict]:
        end = time.perf_counter() + timeout
        while True:
            t, msg = self.messages.get(timeout=max(0.01, end - time.perf_counter()))
            if "method" in msg and "id" in msg:  # server->client request (configuration, progress...)
                result = ([None] * len(msg["params"].get("items", []))
                          if msg["method"] == "workspace/configuration" else None)
                self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                continue
            if pred(msg):
                return t, msg

    def published(self, uri: str, version: int, timeout: float = 60) -> float:
        t, _ = self.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                         and m["params"]["uri"] == uri and m["params"].get("version") == version, timeout)
        return t

    def published_all(self, uris: set[str], version: int, timeout: float = 300) -> None:
        """Waits for every uri's diagnostics at `version`, in whatever order they come."""
        pending = set(uris)

        def seen(m: dict) -> bool:
            if m.get("method") == "textDocument/publishDiagnostics" and m["params"].get("version") == version:
                pending.discard(m["params"]["uri"])
            return not pending

        if pending:
            self.wait(seen, timeout)

    def rss_mib(self) -> float:
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return float("nan")

    def close(self) -> None:
        try:
            self.request("shutdown", {}, timeout=10)
            self.notify("exit", {})
            self.proc.wait(timeout=10)
        except Exception:
            self.proc.kill()


def measure(name: str, cmd: list[str], text: str, folder: Path, chars: int, files: int,
            env: dict[str, str] | None = None) -> dict:
    """One server session: first diagnostics, `chars` keystrokes, then RSS with `files` open
    (skipped when files <= 1)."""
    client = Client(cmd, cwd=str(folder), env=env)
    root = folder.as_uri()
    client.request("initialize", {"processId": os.getpid(), "rootUri": root, "capabilities": {
        "textDocument": {"publishDiagnostics": {"versionSupport": True}}},
        "initializationOptions": {"diagnosticMode": "push"}})
    client.notify("initialized", {})
    path = folder / "main.cl"
    path.write_text(text)
    uri = path.as_uri()
    t0 = time.perf_counter()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "opencl", "version": 1,
                                                            "text": text}})
    first = client.published(uri, 1, timeout=120) - t0
    # Inside a function body, as the issue asks (see typing_point).
    line, col = typing_point(text)
    typed = TYPED[:chars].ljust(chars, " ")
    latencies = []
    for i, ch in enumerate(typed):
        version = i + 2
        t = time.perf_counter()
        client.notify("textDocument/didChange", {
            "textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": {"line": line, "character": col},
                                          "end": {"line": line, "character": col}}, "text": ch}]})
        latencies.append((client.published(uri, version) - t) * 1000)
        col += 1
        time.sleep(0.03)  # a fast typist; lets each keystroke stand alone
    rss_one = client.rss_mib()
    rss_all, all_s = float("nan"), float("nan")
    if files > 1:
        extra = set()
        t_all = time.perf_counter()
        for n in range(files - 1):
            p = folder / f"extra_{n}.cl"
            p.write_text(text)
            extra.add(p.as_uri())
            client.notify("textDocument/didOpen", {"textDocument": {"uri": p.as_uri(), "languageId": "opencl",
                                                                    "version": 1, "text": text}})
        client.published_all(extra, 1, timeout=600)
        all_s = time.perf_counter() - t_all
        rss_all = client.rss_mib()
    client.close()
    return {"server": name, "first_ms": first * 1000, "latencies": latencies, "rss_one": rss_one,
            "rss_all": rss_all, "all_s": all_s, "files": files}


def summarise(name: str, sessions: list[dict]) -> dict:
    lat = [x for s in sessions for x in s["latencies"]]
    q = statistics.quantiles(lat, n=20, method="inclusive")
    return {"server": name, "first_ms": statistics.median(s["first_ms"] for s in sessions),
            "p50": statistics.median(lat), "p95": q[18], "max": max(lat),
            "round_p50": [statistics.median(s["latencies"]) for s in sessions],
            "rss_one": max(s["rss_one"] for s in sessions), "rss_all": sessions[0]["rss_all"],
            "all_s": sessions[0]["all_s"], "n": len(lat)}


def typing_point(text: str) -> tuple[int, int]:
    """Where the keystrokes go, as (line, column): inside a function body, the first
    indented statement line after the middle of the file, at its first character."""
    lines = text.split("\n")
    row = next(i for i, l in enumerate(lines) if i > len(lines) // 2 and l.startswith((" ", "\t"))
               and l.rstrip().endswith(";") and not l.lstrip().startswith(("#", "//", "*")))
    return row, len(lines[row]) - len(lines[row].lstrip())


TYPED = "float typed_value = 1.0f + 2.0f * 3.0f;"


def breakdown(text: str, chars: int, includes: dict[str, bytes] | None = None) -> dict:
    """In-process split of the same keystrokes: incremental edit+parse, lint, LSP
    conversion (ms, medians), and how many functions each lint re-analysed. The file's
    includes are read from `includes` (name -> bytes), as the server reads them from its
    folder: without them a lint skips the headers' work (session 14 found the 'JSON-RPC and
    hand-off' share of the split to be mostly that)."""
    from cllint.analysis.db import Change, Host, TextEdit
    from cllint.server.convert import JsonCache, LineIndex

    files = includes or {}

    def resolve(name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        return (name, files[name]) if name in files else None

    data = text.encode()
    host, idx, published = Host(include_resolver=resolve), LineIndex(data), JsonCache()
    host.set_file("f", data)
    published.convert(host.snapshot().diagnostics("f"), idx)
    row, col = typing_point(text)
    off = len("\n".join(text.split("\n")[:row]).encode()) + 1 + col
    parts: dict[str, list[float]] = {"edit": [], "lint": [], "convert": [], "reanalysed": []}
    for i, ch in enumerate(TYPED[:chars].ljust(chars, " ")):
        e = TextEdit(off + i, off + i, ch.encode())
        t0 = time.perf_counter()
        host.apply_change(Change(edits={"f": [e]}))
        t1 = time.perf_counter()
        snap = host.snapshot()
        diags = snap.diagnostics("f")
        t2 = time.perf_counter()
        idx.apply(e)
        published.convert(diags, idx)  # as the server does: JSON text, reused where it can be
        t3 = time.perf_counter()
        for k, v in zip(parts, (t1 - t0, t2 - t1, t3 - t2)):
            parts[k].append(v * 1000)
        parts["reanalysed"].append(snap.lint_stats("f").get("reanalysed", 0))
    out = {k: statistics.median(v) for k, v in parts.items()}
    out["functions"] = snap.lint_stats("f").get("functions", 0)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--chars", type=int, default=40)
    ap.add_argument("--files", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2, help="keystroke sessions per server, alternating order; "
                    "the 100-file RSS is taken in the first")
    ap.add_argument("--baseline", type=Path, metavar="DIR", help="also a `cllint-base` row: the server of an "
                    "older tree laid out as bench/startup_bench.py says (PYTHONPATH=DIR), in the same rounds")
    args = ap.parse_args()
    text, source, includes = corpus_file()
    runs: list[tuple[str, list[str]]] = [
        ("cllint", os.environ.get("CLLINT_SERVER_CMD", f"{sys.executable} -m cllint server").split())]
    envs: dict[str, dict[str, str]] = {}
    if args.baseline:
        runs.append(("cllint-base", [sys.executable, "-m", "cllint", "server"]))
        envs["cllint-base"] = {"PYTHONPATH": str(args.baseline.resolve())}
    clangd = shutil.which("clangd-19")
    if clangd:
        runs.append(("clangd-19", [clangd, "--log=error"]))
    else:
        print("clangd-19 not found; for the comparison row: apt-get install -y clangd-19", file=sys.stderr)
    load_before = os.getloadavg()
    sessions: dict[str, list[dict]] = {name: [] for name, _ in runs}
    for r in range(args.rounds):
        for name, cmd in runs if r % 2 == 0 else runs[::-1]:
            with tempfile.TemporaryDirectory(prefix=f"lsp-bench-{name}-") as tmp:
                (Path(tmp) / "compile_flags.txt").write_text(CLANGD_FLAGS)
                for inc, data in includes.items():
                    (Path(tmp) / inc).write_bytes(data)
                s = measure(name, cmd, text, Path(tmp), args.chars, args.files if r == 0 else 1, envs.get(name))
                sessions[name].append(s)
                print(f"round {r + 1} {name}: first {s['first_ms']:.0f} ms, p50 {statistics.median(s['latencies']):.1f}"
                      f" ms, load {os.getloadavg()[0]:.2f}", file=sys.stderr, flush=True)
    load_after = os.getloadavg()
    rows = [summarise(name, sessions[name]) for name, _ in runs]
    split = breakdown(text, args.chars, includes)
    out = [
        "# LSP latency: keystroke to publishDiagnostics",
        "",
        f"`bench/lsp_latency.py`: input {source} ({text.count(chr(10))} lines, {len(text.encode()):,} bytes); "
        f"{args.chars} characters typed one by one inside a function, each didChange timed until the "
        "publishDiagnostics with that version. RSS measured after opening "
        f"{args.files} copies and waiting for all their diagnostics. Python {sys.version.split()[0]}, "
        f"commit {_commit()}, {os.cpu_count()} cores shared with other work: load average {load_before[0]:.2f} "
        f"before, {load_after[0]:.2f} after.",
        "",
        f"`.venv/bin/python bench/lsp_latency.py --chars {args.chars} --files {args.files} --rounds {args.rounds}`: "
        f"{args.rounds} sessions per server, alternating which goes first; p50/p95 over all "
        f"{args.rounds * args.chars} keystrokes, first diagnostics as the median of the sessions. "
        + (f"Each server's folder also holds the {len(includes)} files that the input includes or sits beside "
           "(darktable's headers from the cached .deb, the kernel it includes), so the file compiles with clang-19. "
           if includes else "")
        + (f"clangd-19: `{' '.join(runs[-1][1])}` with `compile_flags.txt` = "
           f"`{' '.join(CLANGD_FLAGS.split())}`." if clangd else ""),
        "",
        f"| server | first diagnostics (ms) | p50 (ms) | p95 (ms) | max (ms) | p50 per session (ms) "
        f"| RSS 1 file (MiB) | RSS {args.files} files (MiB) | open {args.files} files (s) |",
        "|---|---:|---:|---:|---:|---|---:|---:|---:|",
    ]
    for r in rows:
        out.append(f"| {r['server']} | {r['first_ms']:.0f} | {r['p50']:.1f} | {r['p95']:.1f} | {r['max']:.1f} "
                   f"| {', '.join(f'{x:.1f}' for x in r['round_p50'])} "
                   f"| {r['rss_one']:.0f} | {r['rss_all']:.0f} | {r['all_s']:.1f} |")
    if clangd:
        c, d = rows[0], rows[-1]
        out += ["", f"Ratios clangd-19 / cllint (above 1: cllint is faster or smaller): p50 **{d['p50'] / c['p50']:.2f}x**, "
                f"p95 {d['p95'] / c['p95']:.2f}x, first diagnostics {d['first_ms'] / c['first_ms']:.2f}x, "
                f"RSS with {args.files} files {d['rss_all'] / c['rss_all']:.2f}x."]
    out += ["", "Where a cllint keystroke goes (in-process medians, same edits): "
            f"incremental edit + reparse {split['edit']:.1f} ms, lint (all rules) {split['lint']:.1f} ms "
            f"(re-analysing {split['reanalysed']:.0f} of {split['functions']} functions), "
            f"conversion to LSP JSON {split['convert']:.2f} ms, the headers read as the server reads them; the rest is JSON-RPC and handing work to the "
            "analysis thread and back (no debounce: the edits of a burst are read before the analysis starts)."]
    if not clangd:
        out += ["", "clangd-19 is not installed on this machine, so there is no comparison row "
                "(`apt-get install clangd-19`, then rerun)."]
    RESULTS.parent.mkdir(exist_ok=True)
    RESULTS.write_text("\n".join(out) + "\n")
    print("\n".join(out))
    return 0


def _commit() -> str:
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=HERE).stdout.strip() or "?"
    except OSError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
