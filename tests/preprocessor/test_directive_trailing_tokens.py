"""Tokens after `#else` or `#endif` (issue 29: IGC's `#endif __OPENCL_C_VERSION__ >=
CL_VERSION_2_0`): clang-19 warns ("extra tokens at end of #endif directive") and compiles, so
they are no syntax error (CL001). `tune/` holds the cases the code was written against,
`heldout/` one written beside them and first run once the code was done."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).with_name("fixtures") / "directive_trailing_tokens"
FILES = sorted(FIXTURES.glob("*/*.cl"))
CLANG = shutil.which("clang-19")


def _id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


@pytest.mark.parametrize("path", FILES, ids=_id)
def test_no_error(path: Path) -> None:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    assert [(d["line"], d["code"]) for d in json.loads(r.stdout) if d["severity"] == "error"] == []


def test_an_error_on_the_next_line_stays(tmp_path: Path) -> None:
    path = tmp_path / "k.cl"
    path.write_text("#if 1\nint a;\n#endif X\nkernel void k(global int *o) { o[0] = 1 }\n")
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                        str(path)], capture_output=True, text=True, timeout=120, check=True)
    assert [d["line"] for d in json.loads(r.stdout) if d["code"] == "CL001"] == [4]


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_clang_compiles(path: Path) -> None:
    r = subprocess.run([CLANG, "-x", "cl", "-cl-std=CL2.0", "-fsyntax-only", str(path)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
