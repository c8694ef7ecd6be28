"""The realistic kernels of fixtures/realistic_r1/ and their labels, clang-19 as the oracle.

Each kernel file names its build flags on its first line (`// flags: -DTS=16 -cl-std=CL2.0`);
clang and cllint both get them, with `-I` the fixture folder (some files include `common.h`).
`labels.json` holds, per file, every line clang reports an error or a warning on, with clang's
message, and for each such line the cllint codes that name the mistake (`expect`). Shared by
tests/semantic/test_semantic_realistic.py and bench/semantic_realistic.py.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

FOLDER = Path(__file__).resolve().parent / "fixtures" / "realistic_r1"
CLANG = shutil.which("clang-19")
ROOT = Path(__file__).resolve().parents[2]
_FLAGS = re.compile(r"^//\s*flags:(.*)$")
_INCLUDE = re.compile(r'^\s*#\s*include\s*"', re.M)
_CLANG_LINE = re.compile(r"^([^:\n]+):(\d+):\d+: (error|warning): (.*)$", re.M)


@dataclass(frozen=True)
class Kernel:
    path: Path
    std: str  # "CL1.2" unless the flags line gives -cl-std=
    defines: tuple[str, ...]  # "NAME=VALUE" or "NAME"
    includes: bool  # the file has an #include "..."

    @property
    def name(self) -> str:
        return self.path.name


def kernels(folder: Path = FOLDER) -> list[Kernel]:
    out: list[Kernel] = []
    for path in sorted(folder.glob("*.cl")):
        text = path.read_text()
        m = _FLAGS.match(text.splitlines()[0])
        flags = m.group(1).split() if m else []
        std = next((f.split("=", 1)[1] for f in flags if f.startswith("-cl-std=")), "CL1.2")
        defines = tuple(f[2:] for f in flags if f.startswith("-D"))
        out.append(Kernel(path, std, defines, bool(_INCLUDE.search(text))))
    return out


def clang(k: Kernel) -> list[tuple[int, str, str]]:
    """(line, severity, message) clang-19 reports in the kernel file itself."""
    assert CLANG is not None
    cmd = [CLANG, "-x", "cl", f"-cl-std={k.std}", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           "-I", str(k.path.parent), *(f"-D{d}" for d in k.defines), str(k.path)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    return [(int(m.group(2)), m.group(3), m.group(4)) for m in _CLANG_LINE.finditer(run.stderr)
            if Path(m.group(1)).name == k.name]


def labels(folder: Path = FOLDER) -> dict[str, dict]:
    return json.loads((folder / "labels.json").read_text())["files"]


@dataclass(frozen=True)
class Report:
    line: int
    code: str
    severity: str
    message: str


def cllint(k: Kernel) -> list[Report]:
    """cllint's reports on the kernel through the CLI, with the kernel's target, defines and `-I`.
    Default rule selection; a crash raises with cllint's stderr."""
    exe = Path(sys.executable).parent / "cllint"
    cmd = [str(exe), "check", "--format", "json", "--no-cache", "--exit-zero", "--std", k.std,
           "-I", str(k.path.parent), *(f"-D{d}" for d in k.defines), str(k.path)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=ROOT)
    if run.returncode != 0:
        raise RuntimeError(f"cllint failed on {k.name} (exit {run.returncode}):\n{run.stderr}")
    return [Report(d["line"], d["code"], d["severity"], d["message"]) for d in json.loads(run.stdout)
            if Path(d["path"]).name == k.name]
