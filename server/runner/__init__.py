"""Build and run kernels on real OpenCL devices, each call in an isolated worker process.

Pure functions returning dataclasses, safe to call from the language server (they block:
run them off the event loop). Nothing here imports pyopencl; only `worker.py` does, in the child.

    list_devices() -> list[DeviceInfo]
    device_profile(selector) -> {"opencl_c_version", "features", "extensions", "device"}
    build(path, device, BuildOptions) -> BuildResult
    run(path, kernel, device, Launch, BuildOptions) -> RunResult
"""

from .api import BuildOptions, build, device_profile, find_device, launch_for, list_devices, oclgrind_icd, run
from .launch import Launch, from_annotation, from_cli, from_sidecar
from .results import (BufferSummary, BuildResult, Comparison, DeviceInfo, RunnerError, RunResult, Timing,
                      to_json)
from .supervisor import WorkerStopped

__all__ = [
    "BufferSummary", "BuildOptions", "BuildResult", "Comparison", "DeviceInfo", "Launch", "RunResult",
    "RunnerError", "Timing", "WorkerStopped", "build", "device_profile", "find_device", "from_annotation",
    "from_cli", "from_sidecar", "launch_for", "list_devices", "oclgrind_icd", "run", "to_json",
]
