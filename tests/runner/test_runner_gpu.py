"""The example matmul on a real GPU agrees with the CPU device (skipped where no GPU ICD is present)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.server.runner import Launch, list_devices, run

MATMUL = Path(__file__).parents[2] / "examples/run/matmul.cl"


@pytest.mark.device
@pytest.mark.gpu
def test_matmul_on_gpu_matches_cpu():
    if not any(d.type == "gpu" and not d.oclgrind for d in list_devices()):
        pytest.skip("no GPU OpenCL platform (register its .icd in /etc/OpenCL/vendors or OCL_ICD_VENDORS)")
    if not any(d.type == "cpu" for d in list_devices()):
        pytest.skip("no CPU OpenCL device to compare with")
    r = run(MATMUL, "matmul", "gpu", Launch(iterations=2), compare_device="cpu")
    assert r.ok and r.timing and r.timing.median_ms > 0
    assert r.comparisons and all(c.ok for c in r.comparisons)
