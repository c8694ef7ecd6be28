"""The clang layer stays silent where its build of the file alone is a guess (guess_cases)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from guess_cases import HELDOUT, TUNE  # noqa: E402
from test_compiler_cli import check_json  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")


def _marked(text: str) -> list[int]:
    return [i for i, line in enumerate(text.splitlines(), 1) if line.endswith("// clang")]


@pytest.mark.parametrize(("name", "split"), [(n, "tune") for n in sorted(TUNE)] + [(n, "heldout") for n in sorted(HELDOUT)])
def test_clang_layer_reports_only_its_own_errors(name: str, split: str, tmp_path: Path) -> None:
    text = (TUNE if split == "tune" else HELDOUT)[name]
    (tmp_path / "k.cl").write_text(text)
    found = check_json(tmp_path / "k.cl")
    assert [d["line"] for d in found if d["code"] == "CL099"] == _marked(text)
