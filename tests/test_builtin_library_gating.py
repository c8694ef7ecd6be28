"""Issue 29 (libclc): a file that defines a built-in function of the catalogue implements the
built-in library for a device. The requirement the definition's own head carries (the image
types of `get_image_width(image2d_t)`, the `double` of `sqrt(double)`), where some overload
of the built-in carries it too, is the device's: its uses in the file are not CL301. Other
requirements stay reported, and so do declarations and helpers with names of their own.

Fixtures: tests/rules/fixtures/builtin_library/{tune,heldout}, `// expect CL301` marks in
the format of tests/gating_eval.py. Figures for both splits:

    .venv/bin/python tests/test_builtin_library_gating.py
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from gating_eval import labels, reports  # noqa: E402

ROOT = Path(__file__).parent / "rules" / "fixtures" / "builtin_library"
TUNE = sorted((ROOT / "tune").glob("*.cl"))
HELDOUT = sorted((ROOT / "heldout").glob("*.cl"))


@pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("path", TUNE + HELDOUT, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_compiles_with_every_feature(path: Path) -> None:
    """Each fixture is valid OpenCL C on a device that has everything it uses."""
    proc = subprocess.run(["clang-19", "-x", "cl", "-cl-std=CL3.0", "-Xclang", "-finclude-default-header",
                           "-Xclang", "-cl-ext=+all", "-fsyntax-only", "-w", str(path)],
                          capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("path", TUNE, ids=lambda p: p.stem)
def test_tune_case(path: Path) -> None:
    assert reports(path) == labels(path)


@pytest.mark.parametrize("path", HELDOUT, ids=lambda p: p.stem)
def test_heldout_case(path: Path) -> None:
    assert reports(path) == labels(path)


if __name__ == "__main__":
    for name, cases in (("tune", TUNE), ("heldout", HELDOUT)):
        exact = sum(reports(p) == labels(p) for p in cases)
        print(f"{name}: {exact}/{len(cases)} files exact")
