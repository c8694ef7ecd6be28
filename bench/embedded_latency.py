"""Editor cost per keystroke for a kernel inside a Python string against the same kernel in a
.cl buffer, in-process through the language server's own code (server/lsp.py's document
sync and analysis, server/features.py's hover and completion; no transport): each keystroke
is a didChange, the diagnostics of the new version, a hover on the last call before the
cursor and a completion at the cursor ("keystroke": the three together, median of the sums).
Issue 20's target: the Python string within 2x.

    .venv/bin/python bench/embedded_latency.py [--kernel FILE.cl] [--chars 40] [--rounds 3]

`--lsp`: the same keystrokes through a `cllint server` process over stdio, wall time from
didChange to publishDiagnostics of that version, and each request's round trip.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lsprotocol import types

from cllint.server import features
from cllint.server.lsp import CllintServer

DEFAULT = Path(__file__).resolve().parents[1] / "examples" / "reduce.cl"
_CALL = re.compile(rb"[A-Za-z_]\w*(?=\()")
STEPS = ("edit+diagnostics", "hover", "completion")
# CPU time of this thread (the server's worker runs here): the machine may be shared, and
# wall time then measures the neighbours; --wall for wall time.
CLOCK = time.thread_time
TYPED = b"v = get_local_id(0) + lid; "  # typed over and over: identifiers, calls, operators


def _position(text: bytes, offset: int) -> types.Position:
    line = text.count(b"\n", 0, offset)
    return types.Position(line, offset - (text.rfind(b"\n", 0, offset) + 1))  # ASCII kernels


class Buffer:
    """One open document of an in-process server, typed into at a byte offset."""

    def __init__(self, ls: CllintServer, uri: str, text: bytes, cursor: int):
        self.ls, self.uri, self.text, self.cursor, self.version = ls, uri, text, cursor, 1
        self.answered = 0  # hovers with an answer: the two buffers must agree
        ls.open_document(uri, 1, text.decode())
        ls.analyse(uri)

    def keystroke(self, ch: bytes, times: dict[str, list[float]]) -> None:
        pos = _position(self.text, self.cursor)
        self.text = self.text[:self.cursor] + ch + self.text[self.cursor:]
        self.cursor += 1
        self.version += 1
        change = types.DidChangeTextDocumentParams(
            types.VersionedTextDocumentIdentifier(version=self.version, uri=self.uri),
            [types.TextDocumentContentChangePartial(range=types.Range(pos, pos), text=ch.decode())])
        calls = _last_call(self.text, self.cursor)
        self._time(times, "edit+diagnostics", lambda: (self.ls.change_document(change), self.ls.analyse(self.uri)))
        hovered = self._time(times, "hover", lambda: features.hover(self.ls, self.uri, _position(self.text, calls)))
        self.answered += hovered is not None
        self._time(times, "completion", lambda: features.completion(
            self.ls, self.uri, _position(self.text, self.cursor)))

    @staticmethod
    def _time(times: dict[str, list[float]], step: str, fn: Callable[[], object]) -> object:
        t = CLOCK()
        out = fn()
        times[step].append(CLOCK() - t)
        return out


def _json(pos: types.Position) -> dict[str, int]:
    return {"line": pos.line, "character": pos.character}


def _last_call(text: bytes, before: int) -> int:
    found = [m.start() for m in _CALL.finditer(text, 0, before)]
    return found[-1] + 1


class LspBuffer:
    """One document of a `cllint server` process, typed into over stdio."""

    def __init__(self, client, path: Path, text: bytes, cursor: int, language: str):
        self.client, self.uri, self.text, self.cursor, self.version = client, path.as_uri(), text, cursor, 1
        self.answered = 0
        path.write_bytes(text)
        client.notify("textDocument/didOpen", {"textDocument": {
            "uri": self.uri, "languageId": language, "version": 1, "text": text.decode()}})
        client.published(self.uri, 1, timeout=120)

    def keystroke(self, ch: bytes, times: dict[str, list[float]]) -> None:
        pos = _position(self.text, self.cursor)
        self.text = self.text[:self.cursor] + ch + self.text[self.cursor:]
        self.cursor += 1
        self.version += 1
        doc = {"uri": self.uri}
        t = time.perf_counter()
        self.client.notify("textDocument/didChange", {
            "textDocument": {**doc, "version": self.version},
            "contentChanges": [{"range": {"start": _json(pos), "end": _json(pos)}, "text": ch.decode()}]})
        times["edit+diagnostics"].append(self.client.published(self.uri, self.version) - t)
        for step, method, at in (("hover", "textDocument/hover", _last_call(self.text, self.cursor)),
                                 ("completion", "textDocument/completion", self.cursor)):
            p = _position(self.text, at)
            t = time.perf_counter()
            reply = self.client.request(method, {"textDocument": doc, "position": _json(p)})
            times[step].append(time.perf_counter() - t)
            self.answered += step == "hover" and reply.get("result") is not None
        time.sleep(0.03)  # a fast typist; each keystroke stands alone


def _lsp_round(kernel: bytes, host: bytes, at_cl: int, at_py: int, chars: int,
               cl_times: dict[str, list[float]], py_times: dict[str, list[float]]) -> tuple[int, int]:
    sys.path.insert(0, str(Path(__file__).parent))
    from lsp_latency import Client

    with tempfile.TemporaryDirectory() as folder:
        client = Client([sys.executable, "-m", "cllint", "server"], cwd=folder)
        client.request("initialize", {"processId": os.getpid(), "rootUri": Path(folder).as_uri(), "capabilities": {
            "textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            "initializationOptions": {"diagnosticMode": "push"}})
        client.notify("initialized", {})
        cl = LspBuffer(client, Path(folder) / "k.cl", kernel, at_cl, "opencl")
        py = LspBuffer(client, Path(folder) / "app.py", host, at_py, "python")
        for n in range(chars):
            ch = TYPED[n % len(TYPED):][:1]
            cl.keystroke(ch, cl_times)
            py.keystroke(ch, py_times)
        client.close()
    return cl.answered, py.answered


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--kernel", type=Path, default=DEFAULT)
    ap.add_argument("--chars", type=int, default=40)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--wall", action="store_true", help="time with perf_counter instead of thread CPU time")
    ap.add_argument("--lsp", action="store_true", help="through a server process over stdio (wall time)")
    args = ap.parse_args()
    global CLOCK
    CLOCK = time.perf_counter if args.wall else time.thread_time
    kernel = args.kernel.read_bytes().replace(b"\\", b"\\\\").replace(b'"""', b'\\"\\"\\"')
    host = b'import pyopencl as cl\n\nSRC = r"""\n' + kernel + b'"""\nprg = cl.Program(ctx, SRC).build()\n'
    # type inside the last function body: before the kernel's final '}'
    at_cl = kernel.rstrip().rfind(b"}")
    at_py = host.find(b'"""\nprg') - (len(kernel) - at_cl)
    cl_times: dict[str, list[float]] = {s: [] for s in STEPS}
    py_times: dict[str, list[float]] = {s: [] for s in STEPS}
    answered = [0, 0]
    for r in range(args.rounds):  # fresh buffers each round; the two alternate keystroke by keystroke
        if args.lsp:
            got = _lsp_round(kernel, host, at_cl, at_py, args.chars, cl_times, py_times)
            answered = [answered[0] + got[0], answered[1] + got[1]]
            continue
        ls = CllintServer()
        cl = Buffer(ls, f"file:///tmp/bench-{r}/k.cl", kernel, at_cl)
        py = Buffer(ls, f"file:///tmp/bench-{r}/app.py", host, at_py)
        for n in range(args.chars):
            ch = TYPED[n % len(TYPED):][:1]
            cl.keystroke(ch, cl_times)
            py.keystroke(ch, py_times)
        ls.worker.shutdown()
        answered = [answered[0] + cl.answered, answered[1] + py.answered]
    lines = kernel.count(b"\n")
    print(f"{args.kernel.name} ({lines} lines), {args.rounds} x {args.chars} keystrokes, median ms per keystroke "
          f"({'LSP over stdio, wall' if args.lsp else 'wall' if args.wall else 'thread CPU'} time):")
    cl_times["keystroke"] = [sum(t) for t in zip(*(cl_times[s] for s in STEPS))]
    py_times["keystroke"] = [sum(t) for t in zip(*(py_times[s] for s in STEPS))]
    for step in (*STEPS, "keystroke"):
        c, p = statistics.median(cl_times[step]) * 1e3, statistics.median(py_times[step]) * 1e3
        print(f"  {step:18} .cl {c:6.2f}  Python string {p:6.2f}  ratio {p / c:.2f}")
    print(f"  hovers answered: .cl {answered[0]}, Python string {answered[1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
