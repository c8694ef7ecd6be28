"""The held-out third of the labelled clang-only kernels (compiler_cases.HELDOUT)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from compiler_cases import HELDOUT, marked_line  # noqa: E402
from test_compiler_cli import check_json  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout_clang_only_error(name: str, tmp_path: Path) -> None:
    bad, good = HELDOUT[name]
    (tmp_path / "bad.cl").write_text(bad)
    found = check_json(tmp_path / "bad.cl")
    assert [(d["code"], d["line"]) for d in found if d["code"] == "CL099"] == [("CL099", marked_line(bad))]
    (tmp_path / "good.cl").write_text(good)
    assert check_json(tmp_path / "good.cl") == []
