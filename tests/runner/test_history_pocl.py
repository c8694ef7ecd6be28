"""`cllint run` keeps its runs in .cllint/runs.jsonl and says what changed; `cllint runs` lists
them; hangs and crashes are recorded as failures with no time; a corrupt history never stops a
run; the device comes from the ICDs OCL_ICD_VENDORS names (how a GPU machine is used). PoCL."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.device

VADD = """\
// cllint-run: global=1024 iterations=3 a=range:float b=fill(2) c=zeros:float:1024:show
__kernel void vadd(__global const float *a, __global const float *b, __global float *c)
{
    size_t i = get_global_id(0);
    c[i] = a[i] + b[i];
}
"""
SPIN = """\
__kernel void spin(__global int *flag)
{
    while (flag[0] == 0) { }
}
"""
CRASH = """\
__kernel void crash(__global int *a)
{
    __global volatile int *p = (__global volatile int *)(a[0] * 0);
    p[get_global_id(0) + 4096] = 1;
}
"""


def cllint(*args: str, cwd: Path, env: dict | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout, env={**os.environ, **(env or {})})


def history(root: Path) -> list[dict]:
    return [json.loads(x) for x in (root / ".cllint" / "runs.jsonl").read_text().splitlines() if x.strip()]


def test_run_records_compares_and_lists(devices, tmp_path):
    (tmp_path / ".cllint.toml").write_text("")
    (tmp_path / "src").mkdir()
    k = tmp_path / "src" / "vadd.cl"
    k.write_text(VADD)
    first = cllint("run", "src/vadd.cl", "-k", "vadd", "--device", "cpu", cwd=tmp_path)
    assert first.returncode == 0, first.stderr
    assert "(the first run of this kernel, launch and device)" in first.stdout
    second = cllint("run", "src/vadd.cl", "-k", "vadd", "--device", "cpu", cwd=tmp_path)
    assert "vs the previous run (" in second.stdout and "outputs: the same as the previous run's" in second.stdout
    k.write_text(VADD.replace("a[i] + b[i]", "a[i] * b[i]"))
    third = cllint("run", "src/vadd.cl", "-k", "vadd", "--device", "cpu", "--format", "json", cwd=tmp_path)
    out = json.loads(third.stdout)
    cl921 = [d for d in out["history"]["diagnostics"] if d["code"] == "CL921"]
    assert len(cl921) == 1 and cl921[0]["message"].endswith("c[0] is 0, was 2"), out["history"]
    assert (cl921[0]["line"], cl921[0]["column"]) == (2, 15), cl921  # the kernel's name
    entries = history(tmp_path)
    assert [e["file"] for e in entries] == ["src/vadd.cl"] * 3 and all(e["via"] == "cli" for e in entries)
    assert all(e["ok"] and e["median_ms"] > 0 and len(e["outputs"][0]["sample"]) == 1024 for e in entries)
    listed = cllint("runs", cwd=tmp_path / "src")  # the root is found from a sub-folder too
    lines = listed.stdout.splitlines()
    assert lines[0].startswith("src/vadd.cl: vadd on ") and lines[0].endswith("(3 runs)"), listed.stdout
    assert len(lines[1].split()[0]) == 3 and len(lines) == 5 and "[CL921]" in lines[4], listed.stdout
    as_json = json.loads(cllint("runs", "src/vadd.cl", "--kernel", "vadd", "--format", "json", cwd=tmp_path).stdout)
    assert len(as_json) == 3 and as_json[0]["compared"] is None and "sample" not in as_json[0]["outputs"][0]
    assert as_json[2]["compared"]["output_changed"]["index"] == 0
    assert json.loads(cllint("runs", "--kernel", "other", "--format", "json", cwd=tmp_path).stdout) == []
    none = cllint("run", "src/vadd.cl", "-k", "vadd", "--device", "cpu", "--no-history", cwd=tmp_path)
    assert none.returncode == 0 and "history" not in none.stdout and len(history(tmp_path)) == 3


def test_hang_and_crash_record_the_failure_not_a_time(devices, tmp_path):
    (tmp_path / "spin.cl").write_text(SPIN)
    (tmp_path / "crash.cl").write_text(CRASH)
    hung = cllint("run", "spin.cl", "-k", "spin", "--device", "cpu", "--global", "1", "--arg", "flag=zeros:int:1",
                  "--timeout", "3", cwd=tmp_path)
    assert hung.returncode == 1 and "stopped after 3 s" in hung.stdout
    assert "recorded as a failure, with no time" in hung.stdout
    crashed = cllint("run", "crash.cl", "-k", "crash", "--device", "cpu", "--global", "4", "--arg", "a=zeros:int:4",
                     cwd=tmp_path)
    assert crashed.returncode == 1 and "crashed during 'run'" in crashed.stdout, crashed.stdout
    spin, crash = history(tmp_path)
    for e, why in ((spin, "stopped after 3 s"), (crash, "crashed")):
        assert e["ok"] is False and why in e["error"] and e["median_ms"] is None and e["outputs"] == []
        assert "Portable Computing Language" in e["device"]
    assert spin["requested"] == {"global": [1], "local": None, "args": ["flag=zeros:int:1"]}
    listed = cllint("runs", "spin.cl", cwd=tmp_path).stdout.splitlines()
    assert listed[1].strip() == "✗" and "failed: " in listed[2], listed


def test_a_corrupt_history_line_warns_and_never_stops_a_run(devices, tmp_path):
    (tmp_path / "vadd.cl").write_text(VADD)
    (tmp_path / ".cllint").mkdir()
    (tmp_path / ".cllint" / "runs.jsonl").write_text('{"time": 3, "file": \n not json at all\n')
    r = cllint("run", "vadd.cl", "-k", "vadd", "--device", "cpu", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stderr.count("cllint: warning:") == 2 and "runs.jsonl:1: skipped" in r.stderr, r.stderr
    assert len(history_lines := (tmp_path / ".cllint" / "runs.jsonl").read_text().splitlines()) == 3
    assert json.loads(history_lines[-1])["kernel"] == "vadd"
    listed = cllint("runs", cwd=tmp_path)
    assert listed.returncode == 0 and "(1 run)" in listed.stdout and "runs.jsonl:2: skipped" in listed.stderr


def test_the_device_comes_from_the_icds_ocl_icd_vendors_names(devices, tmp_path):
    """What the GPU run does with its vendor's ICD: here a folder holding only PoCL's."""
    icd = Path("/etc/OpenCL/vendors/pocl.icd")
    if not icd.exists():
        pytest.skip("PoCL's ICD is not registered in /etc/OpenCL/vendors")
    vendors = tmp_path / "vendors"
    vendors.mkdir()
    shutil.copy(icd, vendors / "pocl.icd")
    (tmp_path / "vadd.cl").write_text(VADD)
    env = {"OCL_ICD_VENDORS": str(vendors), "CLLINT_OCLGRIND_ICD": ""}
    listed = cllint("devices", "--format", "json", cwd=tmp_path, env=env)
    assert [d["platform"] for d in json.loads(listed.stdout)["devices"]] == ["Portable Computing Language"], listed.stdout
    r = cllint("run", "vadd.cl", "-k", "vadd", cwd=tmp_path, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    (e,) = history(tmp_path)
    assert e["ok"] and "Portable Computing Language" in e["device"] and e["driver"]
    empty = tmp_path / "none"
    empty.mkdir()
    nothing = cllint("run", "vadd.cl", "-k", "vadd", cwd=tmp_path, env={**env, "OCL_ICD_VENDORS": str(empty)})
    assert nothing.returncode == 2 and "no OpenCL platform found" in nothing.stderr  # the variable is what counts
    assert len(history(tmp_path)) == 1
