"""Held-out cases for issue 22 items 2, 3 and 5 (written with the others, not used while coding)."""

from __future__ import annotations

import json
import os

import pytest

from cllint.server.runner import WorkerStopped, list_devices
from cllint.server.runner.supervisor import call

from test_worker_start import FIXTURES, cli, shadow_folder

pytestmark = pytest.mark.device


def test_interpreter_that_cannot_start_shows_its_fatal_error():
    with pytest.raises(WorkerStopped) as info:
        call({"op": "devices"}, env={"PYTHONHOME": "/nonexistent"}, what="listing OpenCL devices", timeout_s=30)
    assert info.value.message == ("listing OpenCL devices could not start: "
                                  "ModuleNotFoundError: No module named 'encodings'")
    assert "driver" not in info.value.hint


def test_api_from_a_shadowing_current_folder(devices, tmp_path, monkeypatch):
    monkeypatch.chdir(shadow_folder(tmp_path))
    assert any(d.type == "cpu" for d in list_devices(refresh=True))


def test_run_prints_diagnostic_paths_as_given(devices):
    p = cli("run", "build_errors.cl", "-k", "broken", "--device", "cpu", cwd=FIXTURES)
    assert p.returncode == 1
    assert "build_errors.cl:5:22: CL901 expected expression" in p.stdout.splitlines()
    assert str(FIXTURES) not in p.stdout


def test_run_json_paths_as_given(devices):
    p = cli("run", "build_errors.cl", "-k", "broken", "--device", "cpu", "--format", "json", cwd=FIXTURES)
    files = {d["file"] for d in json.loads(p.stdout)["diagnostics"]}
    assert files == {"build_errors.cl", os.path.join("inc", "helper.h")}
