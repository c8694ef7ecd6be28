"""The labelled kernels that include headers (fixtures/headers/{tune,heldout}/<case>/) and
clang-19 as their oracle, with `-I` the case's include folders. Shared by the tests and
bench/semantic_recall.py; the format is in fixtures/headers/README.md."""

from __future__ import annotations

import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent / "fixtures" / "headers"
SPLITS = ("tune", "heldout")
CLANG = shutil.which("clang-19")
_MARK = re.compile(r"//\s*error\s*$")
_CLANG_LINE = re.compile(r"^[^:\n]+:(\d+):\d+: (error|fatal error|warning): (.*)$", re.M)


@dataclass(frozen=True)
class HeaderCase:
    name: str
    split: str
    folder: Path
    expect: str  # a code (CL010...), "clean" or "unread"
    include: tuple[Path, ...]  # -I folders
    clang_flags: tuple[str, ...]
    line: int  # 1-based line of the mistake in kernel.cl; 0 for clean and unread cases

    @property
    def kernel(self) -> Path:
        return self.folder / "kernel.cl"

    @property
    def fixed(self) -> Path:
        return self.folder / "fixed.cl"


def load(split: str) -> list[HeaderCase]:
    out = []
    for folder in sorted(p for p in (ROOT / split).iterdir() if p.is_dir()):
        meta = dict(ln.split(":", 1) for ln in (folder / "case.txt").read_text().splitlines() if ":" in ln)
        meta = {k.strip(): v.strip() for k, v in meta.items()}
        marked = [i for i, ln in enumerate((folder / "kernel.cl").read_text().splitlines(), 1) if _MARK.search(ln)]
        expect = meta["expect"]
        assert len(marked) == (1 if expect.startswith("CL") else 0), f"{folder.name}: marks {marked}"
        out.append(HeaderCase(folder.name, split, folder, expect,
                              tuple(folder / p for p in meta.get("include", "").split()),
                              tuple(meta.get("clang", "").split()), marked[0] if marked else 0))
    return out


def clang(case: HeaderCase, path: Path, anywhere: bool = False) -> list[tuple[int, str, str]]:
    """clang-19's (line, severity, message) for `path` as OpenCL C 1.2 with the case's -I folders;
    `anywhere`: also what it reports inside the headers."""
    assert CLANG is not None
    cmd = [CLANG, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           *(f"-I{p}" for p in case.include), *case.clang_flags, str(path)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    return [(int(m.group(1)), m.group(2), m.group(3)) for m in _CLANG_LINE.finditer(run.stderr)
            if anywhere or m.group(0).startswith(str(path))]
