"""The server's own CPU per keystroke over stdio (issue 32): utime+stime of the `cllint server`
process from /proc over bench/lsp_latency.py's 39 typed characters in darktable's basic.cl,
each waiting for its publication, after the open and 3 s of rest; also wall p50/p95. Fresh
server per session, trees alternated (each TREE a PYTHONPATH laid out as installed; '' = the
checkout). Linux only.

    cd / && .venv/bin/python bench/server_cpu.py ROUNDS TREE [TREE...]
"""
import os, sys, tempfile, time, statistics, shutil
from pathlib import Path
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_latency as L
text, label, headers = L.corpus_file()
TICK = os.sysconf("SC_CLK_TCK")

def cpu(pid):
    f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(f[11]) + int(f[12])) / TICK

def session(tree):
    folder = Path(tempfile.mkdtemp())
    for name, data in headers.items():
        (folder / name).write_bytes(data)
    (folder / "main.cl").write_text(text)
    env = {"XDG_CACHE_HOME": tempfile.mkdtemp()}
    if tree:
        env["PYTHONPATH"] = tree
    client = L.Client([sys.executable, "-m", "cllint", "server"], cwd="/", env=env)
    client.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {
        "textDocument": {"publishDiagnostics": {"versionSupport": True}}}, "initializationOptions": {"diagnosticMode": "push"}})
    client.notify("initialized", {})
    uri = (folder / "main.cl").as_uri()
    client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "opencl", "version": 1, "text": text}})
    client.published(uri, 1, timeout=120)
    time.sleep(3.0)  # warm-up, idle full pass
    line, col = L.typing_point(text)
    pid = client.proc.pid
    c0 = cpu(pid); walls = []
    for i, ch in enumerate(L.TYPED):
        v = i + 2
        t0 = time.perf_counter()
        client.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": v}, "contentChanges": [
            {"range": {"start": {"line": line, "character": col + i}, "end": {"line": line, "character": col + i}}, "text": ch}]})
        walls.append((client.published(uri, v, timeout=60) - t0) * 1000)
    time.sleep(0.3)
    c1 = cpu(pid)
    client.close()
    shutil.rmtree(folder, ignore_errors=True)
    return (c1 - c0) * 1000 / len(L.TYPED), walls

rounds = int(sys.argv[1]); trees = sys.argv[2:]
res = {t: ([], []) for t in trees}
for r in range(rounds):
    for t in (trees if r % 2 == 0 else trees[::-1]):
        c, w = session(t)
        res[t][0].append(c); res[t][1].extend(w)
        print(f"round {r} {t or 'checkout'}: CPU {c:.1f} ms/keystroke, wall p50 {statistics.median(w):.1f}", flush=True)
for t, (c, w) in res.items():
    w = sorted(w)
    print(f"{t or 'checkout'}: CPU/keystroke {', '.join(f'{x:.1f}' for x in c)} ms; wall p50 {statistics.median(w):.1f} p95 {w[int(0.95*len(w))-1]:.1f} ms ({len(w)} keystrokes); load {os.getloadavg()[0]:.1f}")
