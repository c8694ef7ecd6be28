"""Shared fixtures for the device runner tests (real PoCL and Oclgrind, no mocks)."""

from __future__ import annotations

from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(scope="session")
def devices():
    from cllint.server.runner import list_devices

    found = list_devices()
    if not any(d.type == "cpu" and not d.oclgrind for d in found):
        pytest.skip("no CPU OpenCL device (apt-get install pocl-opencl-icd)")
    return found


@pytest.fixture(scope="session")
def oclgrind(devices):
    if not any(d.oclgrind for d in devices):
        pytest.skip("Oclgrind is not installed (apt-get install oclgrind)")
    return "oclgrind"
