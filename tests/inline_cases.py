"""Shared by the tests whose labelled cases are written inline, a dict of name -> case (issue
29): the held-out third by crc32 of the name, the ids that show it, and clang-19 as the oracle
of a case file."""

from __future__ import annotations

import shutil
import subprocess
import zlib
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
