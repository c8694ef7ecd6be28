"""The clang layer reads the features a host checks before it builds (host_feature_cases)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from host_feature_cases import HELDOUT, TUNE, UNCHECKED_KERNEL, marked_lines  # noqa: E402

pytestmark = pytest.mark.skipif(shutil.which("clang-19") is None, reason="clang-19 is not installed")


def _reports(root: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                        "--compiler", "clang", "."], cwd=root, capture_output=True, text=True, timeout=180)
    assert r.returncode in (0, 1), r.stderr
    return json.loads(r.stdout)


def _case(cases: dict[str, tuple[str, str, str]], name: str, root: Path) -> None:
    host_name, host, kernel = cases[name]
    (root / host_name).write_text(host)
    (root / "k.cl").write_text(kernel)
    found = _reports(root)
    assert sorted(d["line"] for d in found if d["code"] == "CL099") == marked_lines(kernel), found
    # what the host checks is its choice for the native rules as well
    assert [d for d in found if d["code"] != "CL099" and d["severity"] != "info"] == []


@pytest.mark.parametrize("name", sorted(TUNE))
def test_a_feature_the_host_checks_is_declared_for_clang(name: str, tmp_path: Path) -> None:
    _case(TUNE, name, tmp_path)


# Scored once, after the code was written: 2 of 3. The miss is the native rule's (CL301), not
# clang's: a host that checks cl_khr_subgroup_shuffle has sub-groups too (the extension requires
# them), which `checked_extensions` does not infer yet.
_HELDOUT_MISSES = {"subgroup-shuffle-python"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.xfail(strict=True, reason="held-out miss"))
                                  if n in _HELDOUT_MISSES else n for n in sorted(HELDOUT)])
def test_heldout_feature_the_host_checks(name: str, tmp_path: Path) -> None:
    _case(HELDOUT, name, tmp_path)


def test_a_feature_no_host_checks_still_reports(tmp_path: Path) -> None:
    (tmp_path / "k.cl").write_text(UNCHECKED_KERNEL)
    (tmp_path / "host.cpp").write_text('clBuildProgram(p, 1, &dev, "", NULL, NULL);\n')
    lines = {d["line"] for d in _reports(tmp_path) if d["severity"] != "info"}
    assert 3 in lines  # get_sub_group_size at 1.2, unguarded and unchecked
