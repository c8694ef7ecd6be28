"""The labelled one-mistake kernels (fixtures/tune.txt, fixtures/heldout.txt) and clang-19 as
their oracle. Shared by the tests and bench/semantic_recall.py."""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parent / "fixtures"
SPLITS = ("tune", "heldout")
CLANG = shutil.which("clang-19")
_HEADER = re.compile(r"^=== (\S+) (CL\d+)\s*$")
_MARK = re.compile(r"//\s*(error|warning)\s*$")
_CLANG_LINE = re.compile(r"^[^:\n]+:(\d+):\d+: (error|warning): (.*)$", re.M)


@dataclass(frozen=True)
class Case:
    name: str
    code: str  # the cllint code expected on the marked line
    split: str
    bad: str
    fixed: str
    line: int  # 1-based line of the mistake in `bad`
    kind: str  # "error" or "warning": what clang reports there


def load(split: str) -> list[Case]:
    cases: list[Case] = []
    name = code = ""
    parts: list[list[str]] = []
    text = (FIXTURES / f"{split}.txt").read_text()

    def flush() -> None:
        if not name:
            return
        bad, fixed = ("\n".join(p).strip("\n") + "\n" for p in parts)
        marked = [(i, m.group(1)) for i, ln in enumerate(bad.splitlines(), 1) if (m := _MARK.search(ln))]
        assert len(marked) == 1, f"{name}: mark exactly one line"
        cases.append(Case(name, code, split, bad, fixed, marked[0][0], marked[0][1]))

    for ln in text.splitlines():
        m = _HEADER.match(ln)
        if m:
            flush()
            name, code, parts = m.group(1), m.group(2), [[]]
        elif ln.strip() == "--- fixed" and name:
            parts.append([])
        elif name:
            parts[-1].append(ln)
        elif ln.startswith("#") or not ln.strip():
            continue
    flush()
    return cases


def clang(source: str) -> list[tuple[int, str, str]]:
    """clang-19's (line, severity, message) for an OpenCL C 1.2 kernel, the target cllint
    lints for by default."""
    assert CLANG is not None
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "k.cl"
        path.write_text(source)
        run = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header",
                              "-fsyntax-only", str(path)], capture_output=True, text=True, timeout=60)
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in _CLANG_LINE.finditer(run.stderr)]
