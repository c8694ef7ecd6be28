"""Plain data returned by the runner API; every type here is JSON-serialisable via `to_json`."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field  # asdict re-exported for callers
from typing import Any

from cllint.analysis.diagnostics import Diagnostic


class RunnerError(Exception):
    """A problem the user can fix (bad selector, no platform, bad description); `hint` says how."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message}\n  = help: {self.hint}" if self.hint else self.message


@dataclass(frozen=True)
class DeviceInfo:
    index: int  # position in `cllint devices`; a selector may name it
    platform: str
    platform_version: str
    name: str
    vendor: str
    type: str  # "cpu" | "gpu" | "accelerator" | "other"
    version: str
    driver_version: str
    opencl_c_version: str  # e.g. "OpenCL C 1.2"
    opencl_c_versions: tuple[str, ...]
    features: tuple[str, ...]  # __opencl_c_* feature macros (OpenCL 3.0 devices)
    extensions: str
    compute_units: int
    global_mem_bytes: int
    local_mem_bytes: int
    max_alloc_bytes: int
    max_work_group_size: int
    max_work_item_sizes: tuple[int, ...]
    oclgrind: bool  # a checking device: its stderr carries CL91x reports
    # how the worker finds it again: the OCL_ICD_VENDORS override (None = system ICDs)
    icd: str | None = None
    platform_index: int = 0
    device_index: int = 0

    def label(self) -> str:
        return f"{self.name} ({self.platform})"


@dataclass(frozen=True)
class BuildResult:
    ok: bool
    diagnostics: tuple[Diagnostic, ...]
    log: str
    seconds: float
    device: DeviceInfo
    options: str
    kernels: tuple[str, ...] = ()


@dataclass(frozen=True)
class Timing:
    iterations: int
    samples_ms: tuple[float, ...]
    median_ms: float
    min_ms: float
    max_ms: float
    stdev_ms: float


@dataclass(frozen=True)
class BufferSummary:
    name: str
    dtype: str
    count: int
    first: tuple[float, ...]
    min: float | None
    max: float | None
    mean: float | None
    nan: int
    inf: int
    saved: str | None = None  # .npy path written with `save=`
    # for comparing runs without keeping buffers (.cllint/runs.jsonl): a hash of the bytes and
    # every `stride`-th value (at most SAMPLE_MAX; NaN and infinities as "nan", "inf", "-inf")
    digest: str = ""
    stride: int = 1
    sample: tuple[float | int | str, ...] = ()


@dataclass(frozen=True)
class Comparison:
    name: str
    against: str  # a device label or a .npy path
    max_abs_error: float
    max_rel_error: float
    mismatched: int  # elements beyond the tolerance
    ok: bool


@dataclass(frozen=True)
class RunResult:
    ok: bool
    kernel: str
    device: DeviceInfo
    global_size: tuple[int, ...]
    local_size: tuple[int, ...] | None
    args: tuple[str, ...]  # the resolved description, one `name=spec` per argument
    build_seconds: float
    timing: Timing | None
    outputs: tuple[BufferSummary, ...]
    diagnostics: tuple[Diagnostic, ...] = ()
    comparisons: tuple[Comparison, ...] = ()
    log: str = ""
    # .npy dumps of every shown buffer, for comparisons across devices (temporary files)
    dumps: dict[str, str] = field(default_factory=dict)


def to_json(obj: Any) -> Any:
    """Dataclasses, enums and tuples to plain JSON values."""
    if hasattr(obj, "__dataclass_fields__"):
        return {k: to_json(v) for k, v in asdict_shallow(obj).items()}
    if isinstance(obj, (list, tuple)):
        return [to_json(v) for v in obj]
    if isinstance(obj, dict):
        return {str(k): to_json(v) for k, v in obj.items()}
    if hasattr(obj, "value") and obj.__class__.__module__ != "builtins":
        return obj.value
    return obj


def asdict_shallow(obj: Any) -> dict[str, Any]:
    # asdict() deep-copies and cannot handle slots+frozen mixes cleanly; one level is enough here
    return {name: getattr(obj, name) for name in obj.__dataclass_fields__}


__all__ = [
    "BufferSummary",
    "BuildResult",
    "Comparison",
    "DeviceInfo",
    "RunResult",
    "RunnerError",
    "Timing",
    "asdict",
    "to_json",
]
