"""Issue 22 items 2, 3 and 5: a worker that cannot start says why (not "the driver crashed"),
workers import the installed cllint whatever the current folder holds, and `cllint build`
prints paths as the user gave them. Real processes and PoCL, no mocks.
Held-out cases: test_worker_start_heldout.py."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from cllint.server.runner import WorkerStopped
from cllint.server.runner.supervisor import call

FIXTURES = Path(__file__).parent / "fixtures"
CLLINT = Path(sys.executable).parent / "cllint"  # the console script beside this Python
pytestmark = pytest.mark.device


def shadow_folder(root: Path) -> Path:
    """A folder with a `cllint/` directory that is not the package (issue 22, item 3)."""
    (root / "cllint").mkdir(parents=True)
    (root / "cllint" / "__init__.py").write_text('raise ImportError("this cllint folder is not the package")\n')
    return root


def cli(*argv: str, cwd: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    exe = CLLINT if CLLINT.exists() else "cllint"
    return subprocess.run([str(exe), *argv], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


# -- item 3: workers ignore a `cllint/` folder in the current directory -------------------


def test_devices_from_a_folder_that_holds_a_cllint_directory(devices, tmp_path):
    p = cli("devices", "--format", "json", cwd=shadow_folder(tmp_path))
    assert p.returncode == 0, p.stderr
    assert any(d["type"] == "cpu" for d in json.loads(p.stdout)["devices"])


def test_build_from_a_folder_that_holds_a_cllint_directory(devices, tmp_path):
    shadow_folder(tmp_path)
    (tmp_path / "ok.cl").write_text("kernel void k(global int *a) { a[0] = 1; }\n")
    p = cli("build", "ok.cl", "--device", "cpu", cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert p.stdout.startswith("ok.cl: built on ") and "kernels: k" in p.stdout


# -- item 2: a worker that dies before the driver runs is not blamed on the driver ------------


def test_worker_import_error_names_the_error_not_the_driver(tmp_path):
    broken = shadow_folder(tmp_path / "site")
    with pytest.raises(WorkerStopped) as info:
        call({"op": "devices"}, env={"PYTHONPATH": str(broken)}, what="listing OpenCL devices", timeout_s=30)
    exc = info.value
    assert exc.message == ("listing OpenCL devices could not start: "
                           "ImportError: this cllint folder is not the package")
    assert "driver" not in exc.message + exc.hint and "kernel" not in exc.hint
    assert "cllint" in exc.hint and "pip install" in exc.hint


def test_oclgrind_selector_without_oclgrind_says_how_to_install(devices, tmp_path):
    (tmp_path / "ok.cl").write_text("kernel void k(global int *a) { a[0] = 1; }\n")
    # no Oclgrind anywhere: not cllint's own ICD file, and the system's drivers but Oclgrind
    (tmp_path / "vendors").mkdir()
    for icd in Path("/etc/OpenCL/vendors").glob("*.icd"):
        if "oclgrind" not in icd.read_text().lower():
            (tmp_path / "vendors" / icd.name).write_text(icd.read_text())
    p = cli("build", "ok.cl", "--device", "oclgrind", cwd=tmp_path,
            env={"CLLINT_OCLGRIND_ICD": "", "OCL_ICD_VENDORS": str(tmp_path / "vendors")})
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "Oclgrind is not installed" in p.stderr and "apt-get install oclgrind" in p.stderr


def test_no_platform_names_pocl_package_for_devices(tmp_path):
    p = cli("devices", cwd=tmp_path, env={"OCL_ICD_VENDORS": str(tmp_path), "CLLINT_OCLGRIND_ICD": ""})
    assert p.returncode == 2 and "no OpenCL platform found" in p.stderr
    assert "pocl-opencl-icd" in p.stderr and "Traceback" not in p.stderr


# -- item 5: `cllint build` prints paths as given, like `cllint check` ----------------------


def test_build_prints_paths_as_given(devices):
    p = cli("build", "build_errors.cl", "--device", "cpu", cwd=FIXTURES)
    assert p.returncode == 1
    lines = p.stdout.splitlines()
    assert "build_errors.cl:5:22: CL901 expected expression" in lines
    assert any(x.startswith("inc/helper.h:3:14: CL901 ") for x in lines)
    assert str(FIXTURES) not in p.stdout
    check = cli("check", "build_errors.cl", "--format", "json", cwd=FIXTURES)
    assert {d["path"] for d in json.loads(check.stdout)} == {"build_errors.cl"}


def test_build_json_paths_as_given(devices):
    rel = os.path.relpath(FIXTURES / "build_errors.cl", FIXTURES.parent)
    p = cli("build", rel, "--device", "cpu", "--format", "json", cwd=FIXTURES.parent)
    files = {d["file"] for d in json.loads(p.stdout)["diagnostics"]}
    assert files == {"fixtures/build_errors.cl", "fixtures/inc/helper.h"}
