"""Running a pyopencl host script on PoCL for the tests that confirm a report with the real
library: skipped, with how to get it, where no PoCL device is installed."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest


def run_host(host: Path, *args: str) -> subprocess.CompletedProcess:
    r = subprocess.run([sys.executable, str(host), *args], capture_output=True, text=True, timeout=300)
    if "no PoCL platform" in r.stderr or "PLATFORM_NOT_FOUND" in r.stderr:
        pytest.skip("no PoCL device here: scripts/setup installs it (Debian package pocl-opencl-icd)")
    return r
