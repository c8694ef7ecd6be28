"""Build, run, isolation and bad-input behaviour on PoCL and Oclgrind."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from cllint.server.runner import BuildOptions, RunnerError, WorkerStopped, build, from_cli, run

FIXTURES = Path(__file__).parent / "fixtures"
KERNELS = FIXTURES / "kernels.cl"
pytestmark = pytest.mark.device


def _line_col(span) -> tuple[int, int]:
    head = Path(span.file).read_bytes()[: span.start]
    return head.count(b"\n") + 1, span.start - (head.rfind(b"\n") + 1) + 1


@pytest.mark.parametrize("device", ["cpu", "oclgrind"])
def test_build_errors_map_to_file_and_line(devices, device):
    if device == "oclgrind" and not any(d.oclgrind for d in devices):
        pytest.skip("Oclgrind is not installed")
    r = build(FIXTURES / "build_errors.cl", device)
    assert not r.ok
    where = {(Path(d.span.file).name, *_line_col(d.span), d.code) for d in r.diagnostics}
    assert ("helper.h", 3, 14, "CL901") in where  # the included file, not the main one
    assert ("build_errors.cl", 5, 22, "CL901") in where


def test_build_defines_and_std(devices, tmp_path):
    src = tmp_path / "d.cl"
    src.write_text("#ifndef WIDTH\n#error WIDTH is not set\n#endif\n__kernel void k(__global int *a) { a[0] = WIDTH; }\n")
    assert not build(src, "cpu").ok
    ok = build(src, "cpu", BuildOptions(std="CL1.2", defines=("WIDTH=4",)))
    assert ok.ok and ok.kernels == ("k",) and "-cl-std=CL1.2" in ok.options


def test_run_matches_numpy_from_cli_description(devices):
    launch = from_cli("256", "64", 3, ["a=rand(-2,2):float:seed=7", "b=range(0,512):256", "n=256"])
    r = run(KERNELS, "vadd", "cpu", launch, expect=None)
    assert r.ok and r.global_size == (256,) and r.local_size == (64,)
    a = np.random.default_rng(7).uniform(-2, 2, 256).astype(np.float32)
    b = np.arange(256, dtype=np.float64).astype(np.float32) * 2  # range(0,512):256 steps by 2
    (c,) = r.outputs
    assert c.name == "c" and c.count == 256
    np.testing.assert_allclose(c.first, (a + b)[:8], rtol=1e-6)
    assert c.max == pytest.approx(float((a + b).max()), rel=1e-6)
    assert r.timing is not None and r.timing.iterations == 3 and r.timing.median_ms > 0


def test_annotation_and_sidecar_and_saved_expectation(devices, tmp_path):
    # annotation above 'vadd': a=range b=fill(2) over 64 items
    r = run(KERNELS, "vadd", "cpu", from_cli(None, None, None, [f"c=zeros:save={tmp_path / 'c.npy'}"]))
    c = np.load(tmp_path / "c.npy")
    np.testing.assert_array_equal(c, np.arange(64, dtype=np.float32) + 2)
    assert "a=range:float:64:hide" in r.args
    # sidecar kernels.cl.run.toml: scale x=range(1) by k=3 over 32 items, then compare with a file
    np.save(tmp_path / "want.npy", (np.arange(32, dtype=np.float32) + 1) * 3)
    s = run(KERNELS, "scale", "cpu", expect={"x": str(tmp_path / "want.npy")})
    assert s.global_size == (32,) and s.comparisons[0].ok and s.comparisons[0].max_abs_error == 0


def test_defaults_inferred_from_signature(devices, tmp_path):
    src = tmp_path / "plain.cl"
    src.write_text("__kernel void twice(__global const float *in, __global float *out)\n"
                   "{ out[get_global_id(0)] = 2.0f * in[get_global_id(0)]; }\n")
    r = run(src, "twice", "cpu")
    assert r.global_size == (1024,)
    assert [o.name for o in r.outputs] == ["out"]  # const input hidden
    want = 2 * np.random.default_rng(0).uniform(0, 1, 1024).astype(np.float32)
    assert r.outputs[0].mean == pytest.approx(float(want.mean()), rel=1e-5)


def test_hanging_kernel_is_stopped_by_time_limit(devices):
    with pytest.raises(WorkerStopped, match=r"stopped after 3 s during 'run'"):
        run(KERNELS, "spin", "cpu", from_cli("1", None, 1, ["flag=zeros:int:1"]), timeout_s=3)


def test_segfaulting_kernel_ends_only_the_worker(devices):
    with pytest.raises(WorkerStopped, match="crashed during 'run'"):
        run(KERNELS, "crash", "cpu", from_cli("1", None, 1, []))


def test_divergent_barrier_and_race_caught_by_oclgrind(oclgrind):
    r = run(KERNELS, "divergent", oclgrind, from_cli("8", "4", 1, []))
    (d,) = [d for d in r.diagnostics if d.code == "CL910"]
    assert _line_col(d.span) == (29, 9) and "only 2 out of 4" in d.message and not r.ok
    race = run(KERNELS, "racy", oclgrind, from_cli("8", "4", 1, []))
    assert [(_line_col(d.span)[0], d.code) for d in race.diagnostics] == [(35, "CL911")]


@pytest.mark.parametrize(
    ("kernel", "args", "message"),
    [
        ("nope", [], "no kernel named 'nope'.*kernels there: 'vadd'"),
        ("vadd", ["x=zeros"], "kernel 'vadd' has no argument 'x'.*'a', 'b', 'c', 'n'"),
        ("vadd", ["0", "1", "2", "3", "4"], "has no argument '4'"),
        ("vadd", ["a=zeros:int"], "'a' of 'vadd' is 'float\\*' but the description gives 'int'"),
        ("vadd", ["n=rand"], "is a scalar 'uint' but the description gives 'rand'"),
        ("vadd", ["a=local"], "is a buffer 'float\\*' but the description gives 'local'"),
    ],
)
def test_bad_descriptions_say_what_to_do(devices, kernel, args, message):
    with pytest.raises(RunnerError, match="(?s)" + message):
        run(KERNELS, kernel, "cpu", from_cli("64", None, 1, args))


def _cli(*argv: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "cllint", *argv], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=60)


def test_cli_unknown_device_and_no_platform(devices, tmp_path):
    p = _cli("run", str(KERNELS), "-k", "vadd", "--device", "no-such-gpu")
    assert p.returncode == 2 and "no device matches 'no-such-gpu'" in p.stderr
    assert "cllint devices" in p.stderr and "Traceback" not in p.stderr
    empty = {"OCL_ICD_VENDORS": str(tmp_path), "CLLINT_OCLGRIND_ICD": ""}
    p = _cli("build", str(KERNELS), env=empty)
    assert p.returncode == 2 and "no OpenCL platform found" in p.stderr and "pocl-opencl-icd" in p.stderr


def test_cli_json_outputs(devices):
    p = _cli("devices", "--format", "json")
    data = json.loads(p.stdout)
    cpu = next(d for d in data["devices"] if d["type"] == "cpu")
    assert cpu["max_work_group_size"] > 0 and cpu["opencl_c_version"].startswith("OpenCL C")
    p = _cli("run", str(KERNELS), "-k", "vadd", "--format", "json", "-n", "2", "--no-history")
    out = json.loads(p.stdout)
    assert p.returncode == 0 and out["outputs"][0]["first"][:3] == [2.0, 3.0, 4.0]
    assert out["timing"]["iterations"] == 2
