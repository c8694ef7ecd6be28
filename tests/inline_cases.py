"""Shared by the tests whose labelled cases are written inline, a dict of name -> case (issue
29): the held-out third by crc32 of the name, the ids that show it, and clang-19 as the oracle
of a case file."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import zlib
from collections.abc import Callable, Iterable
from pathlib import Path

CLANG = shutil.which("clang-19")


def split(name: str) -> str:
    """'heldout' for a third of the names (crc32 % 3 == 0), chosen before the code; else 'tune'."""
    return "heldout" if zlib.crc32(name.encode()) % 3 == 0 else "tune"


def case_id(name: str) -> str:
    return f"{split(name)}/{name}"


def clang_check(path: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    """clang-19's syntax check of one file as OpenCL C 1.2 unless `flags` say otherwise (CLANG
    must not be None)."""
    return subprocess.run([str(CLANG), "-x", "cl", "-cl-std=CL1.2", "-fsyntax-only", *flags, str(path)],
                          capture_output=True, text=True, timeout=60)


def write_files(root: Path, files: dict[str, bytes]) -> None:
    """A case's workspace: each relative path written under `root`, its folders made."""
    for rel, data in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_bytes(data)


def cllint_json(cwd: Path, *args: str) -> list[dict]:
    """`cllint check --no-cache --format json --exit-zero ARGS` run in `cwd`, as a user runs it."""
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                        *args], cwd=cwd, capture_output=True, text=True, timeout=120, check=True)
    return json.loads(r.stdout)


def halves(names: Iterable[str]) -> tuple[list[str], list[str]]:
    """The tune and the held-out names, sorted."""
    ordered = sorted(names)
    return [n for n in ordered if split(n) == "tune"], [n for n in ordered if split(n) == "heldout"]


def print_halves(names: Iterable[str], wrong: Callable[[str], object]) -> int:
    """A labelled set's script mode: per half, how many cases pass and what the others give
    (`wrong(name)`: a falsy value when the case passes, else what to show)."""
    for label, half in zip(("tune", "heldout"), halves(names)):
        missed = [(n, w) for n in half if (w := wrong(n))]
        print(f"{label}: {len(half) - len(missed)}/{len(half)}", *(f"  wrong: {n} {w}" for n, w in missed), sep="\n")
    return 0
