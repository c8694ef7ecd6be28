"""A document's first diagnostics kept on disk (cllint/results_cache.py, issue 32): a fresh
server opening the same text with the same headers publishes the kept result; a header changed
on disk is never answered from the old entry."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
MAIN = '#include "a.h"\nkernel void k(global int *p) { p[0] = A_VALUE; }\n'
DEFINES = "#define A_VALUE 1\n"
OTHER = "#define B_VALUE 1\n"  # A_VALUE no longer defined: CL012


class Server:
    """`cllint server` over stdio, just enough to open documents and read what it publishes."""

    def __init__(self, folder: Path, cache: Path) -> None:
        env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
        self.proc = subprocess.Popen([sys.executable, "-m", "cllint.cli.main", "server"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, cwd=folder, env=env)
        self.next_id = 0
        self.request("initialize", {"processId": os.getpid(), "rootUri": folder.as_uri(), "capabilities": {
            "textDocument": {"publishDiagnostics": {"versionSupport": True}}},
            "initializationOptions": {"diagnosticMode": "push"}})
        self.notify("initialized", {})

    def _send(self, obj: dict) -> None:
        body = json.dumps(obj).encode()
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def _read(self) -> dict:
        length = 0
        while (line := self.proc.stdout.readline().strip()):
            if line.lower().startswith(b"content-length:"):
                length = int(line.split(b":")[1])
        return json.loads(self.proc.stdout.read(length))

    def notify(self, method: str, params: dict) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self._send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        while "id" not in (msg := self._read()) or msg.get("method"):
            pass
        return msg

    def open(self, path: Path, text: str) -> None:
        self.notify("textDocument/didOpen", {"textDocument": {"uri": path.as_uri(), "languageId": "opencl",
                                                              "version": 1, "text": text}})

    def published(self, path: Path, deadline: float = 60) -> list[str]:
        """The codes of the first diagnostics published for `path`."""
        end = time.monotonic() + deadline
        while time.monotonic() < end:
            msg = self._read()
            if msg.get("method") == "textDocument/publishDiagnostics" and msg["params"]["uri"] == path.as_uri():
                return sorted(d["code"] for d in msg["params"]["diagnostics"])
        raise AssertionError("no diagnostics published")

    def close(self) -> None:
        self.request("shutdown", {})
        self.notify("exit", {})
        self.proc.wait(10)


def _aged(path: Path, text: str, seconds: float) -> None:
    """Written `seconds` ago: a stamp older than RACY_SECONDS, so a result may be kept."""
    path.write_text(text)
    past = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(past, past))


def test_a_reopened_document_is_answered_from_disk_until_a_header_changes(tmp_path: Path) -> None:
    folder, cache = tmp_path / "w", tmp_path / "cache"
    folder.mkdir()
    main, header = folder / "main.cl", folder / "a.h"
    _aged(main, MAIN, 60)
    _aged(header, DEFINES, 60)
    kept = cache / "cllint" / "editor"

    server = Server(folder, cache)
    server.open(main, MAIN)
    assert server.published(main) == []
    server.close()
    entries = list(kept.iterdir())
    assert len(entries) == 1, "the first analysis was kept"
    stamp = entries[0].stat().st_mtime_ns

    server = Server(folder, cache)
    server.open(main, MAIN)
    assert server.published(main) == []  # the kept result (the check in the background agrees)
    server.close()
    assert [e.stat().st_mtime_ns for e in kept.iterdir()] == [stamp]  # a hit: nothing written again

    _aged(header, OTHER, 30)  # same size, other stamp: the entry no longer holds
    server = Server(folder, cache)
    server.open(main, MAIN)
    assert server.published(main) == ["CL012"]
    server.close()
