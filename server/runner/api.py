"""The runner's public functions. Each call runs pyopencl in a fresh worker process."""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from cllint.analysis.diagnostics import Diagnostic

from . import diagnose
from .launch import Launch, from_annotation, from_sidecar
from .results import (BufferSummary, BuildResult, Comparison, DeviceInfo, RunnerError, RunResult,
                      Timing)
from .selector import select
from .supervisor import DEFAULT_MEMORY_MB, DEFAULT_TIMEOUT_S, WorkerStopped, call

_OCLGRIND_LIBS = ("/usr/lib/oclgrind/liboclgrind-rt-icd.so",
                  "/usr/lib/x86_64-linux-gnu/liboclgrind-rt-icd.so",
                  "/usr/local/lib/liboclgrind-rt-icd.so")
# Oclgrind's checks beyond its defaults (divergence, out-of-bounds); ignored by other drivers
_OCLGRIND_ENV = {"OCLGRIND_DATA_RACES": "1", "OCLGRIND_UNINITIALIZED": "1", "OCLGRIND_CHECK_API": "1"}
_cache: list[DeviceInfo] | None = None


@dataclass(frozen=True)
class BuildOptions:
    std: str | None = None  # "CL1.2" | "CL2.0" | "CL3.0"
    include_dirs: tuple[str, ...] = ()
    defines: tuple[str, ...] = ()  # "NAME" or "NAME=VALUE"
    extra: str = ""  # passed through verbatim

    def render(self, source: Path) -> str:
        opts = [f"-cl-std={self.std}"] if self.std else []
        for d in (str(source.resolve().parent), *self.include_dirs):
            opts.append(f"-I {Path(d).resolve()}")  # the source travels as text: its folder must be explicit
        opts += [f"-D {d}" for d in self.defines]
        opts.append("-cl-kernel-arg-info")
        if self.extra:
            opts.append(self.extra)
        return " ".join(opts)


def oclgrind_icd() -> str | None:
    """Oclgrind's ICD library, for when it is installed but not registered in /etc/OpenCL/vendors."""
    forced = os.environ.get("CLLINT_OCLGRIND_ICD")
    if forced is not None:  # a path, or empty to leave Oclgrind out
        return forced or None
    exe = shutil.which("oclgrind")
    guesses = list(_OCLGRIND_LIBS)
    if exe:
        guesses.insert(0, str(Path(exe).resolve().parent.parent / "lib/oclgrind/liboclgrind-rt-icd.so"))
    return next((g for g in guesses if Path(g).exists()), None)


def list_devices(refresh: bool = False, timeout_s: float = 30.0) -> list[DeviceInfo]:
    """Every device the system ICDs expose, then Oclgrind if it is installed but not registered."""
    global _cache
    if _cache is not None and not refresh:
        return _cache
    found = _devices_of(None, 0, timeout_s)
    lib = oclgrind_icd()
    if lib and not any(d.oclgrind for d in found):
        try:
            found += _devices_of(lib, len(found), timeout_s)
        except RunnerError:
            pass  # a broken Oclgrind install should not hide the real devices
    _cache = found
    return found


def _devices_of(icd: str | None, base: int, timeout_s: float) -> list[DeviceInfo]:
    env = {"OCL_ICD_VENDORS": icd} if icd else {}
    reply = call({"op": "devices", "icd": icd, "base": base}, timeout_s=timeout_s, env=env,
                 what="listing OpenCL devices")
    _raise_error(reply.data)
    return [_device(d) for d in reply.data["devices"]]


def _device(d: dict) -> DeviceInfo:
    return DeviceInfo(**{**d, "opencl_c_versions": tuple(d["opencl_c_versions"]),
                         "features": tuple(d["features"]),
                         "max_work_item_sizes": tuple(d["max_work_item_sizes"])})


def find_device(selector: str | None) -> DeviceInfo:
    return select(list_devices(), selector)


def device_profile(selector: str | None = None) -> dict:
    """What the static target model needs to agree with the real compiler."""
    d = find_device(selector)
    version = d.opencl_c_version.replace("OpenCL C", "").strip().split(" ")[0]
    if d.opencl_c_versions:  # OpenCL 3.0 devices list every version they accept; take the newest
        version = max(d.opencl_c_versions, key=lambda v: tuple(map(int, v.split("."))))
    return {"opencl_c_version": version, "features": list(d.features), "extensions": d.extensions,
            "device": d.label()}


def _raise_error(data: dict) -> None:
    if "error" in data:
        raise RunnerError(data["error"]["message"], data["error"].get("hint", ""))


def _request(op: str, source: Path, dev: DeviceInfo, options: BuildOptions) -> dict:
    try:
        text = source.read_text()
    except (OSError, UnicodeDecodeError) as exc:
        raise RunnerError(f"cannot read '{source}': {exc}", "check the path") from None
    return {"op": op, "source_path": str(source.resolve()), "source": text, "options": options.render(source),
            "icd": dev.icd, "platform_index": dev.platform_index, "device_index": dev.device_index}


def _env(dev: DeviceInfo) -> dict[str, str]:
    return {**_OCLGRIND_ENV, **({"OCL_ICD_VENDORS": dev.icd} if dev.icd else {})}


def _build_result(data: dict, dev: DeviceInfo, files: diagnose.Files, opts: str) -> BuildResult:
    b = data["build"]
    diags = diagnose.build_log(b["log"], files, failed=not b["ok"])
    return BuildResult(b["ok"], tuple(diags), b["log"], b["seconds"], dev, opts, tuple(b["kernels"]))


def build(source_path: str | Path, device: str | None = None, options: BuildOptions = BuildOptions(),
          timeout_s: float = DEFAULT_TIMEOUT_S, memory_mb: int = DEFAULT_MEMORY_MB) -> BuildResult:
    """clBuildProgram on one device; the log becomes CL901/CL902 diagnostics."""
    source = Path(source_path)
    dev = find_device(device)
    req = _request("build", source, dev, options)
    reply = call(req, timeout_s=timeout_s, memory_mb=memory_mb, env=_env(dev),
                 what=f"building '{source.name}' on '{dev.name}'")
    _raise_error(reply.data)
    return _build_result(reply.data, dev, diagnose.Files(source, options.include_dirs), req["options"])


def launch_for(source_path: str | Path, kernel: str, cli: Launch = Launch()) -> Launch:
    """The description from the sidecar, then the annotation, then `cli`; later wins per key."""
    source = Path(source_path)
    sidecar = Path(f"{source}.run.toml")
    merged = from_sidecar(sidecar, kernel) if sidecar.exists() else Launch()
    merged = merged.merged(from_annotation(source.read_text(errors="replace"), kernel))
    return merged.merged(cli)


def run(source_path: str | Path, kernel: str, device: str | None = None, launch: Launch = Launch(),
        options: BuildOptions = BuildOptions(), *, compare_device: str | None = None,
        expect: dict[str, str] | None = None, timeout_s: float = DEFAULT_TIMEOUT_S,
        memory_mb: int = DEFAULT_MEMORY_MB) -> RunResult:
    """Build, run `kernel` once (outputs), then `iterations` more times (timing)."""
    source = Path(source_path)
    dev = find_device(device)
    files = diagnose.Files(source, options.include_dirs)
    desc = launch_for(source, kernel, launch)
    with tempfile.TemporaryDirectory(prefix="cllint-dumps-") as tmp:
        result = _run_once(source, kernel, dev, desc, options, files, timeout_s, memory_mb, tmp)
        if not result.ok:
            return result
        comps: list[Comparison] = []
        if compare_device:
            other = find_device(compare_device)
            same = Launch(result.global_size, result.local_size, 1,
                          dict(a.split("=", 1) for a in result.args))  # exactly the same inputs
            with tempfile.TemporaryDirectory(prefix="cllint-dumps-") as tmp2:
                ref = _run_once(source, kernel, other, same, options, files, timeout_s, memory_mb, tmp2)
                if not ref.ok:
                    raise RunnerError(f"'{kernel}' did not build on '{other.label()}'",
                                      "run 'cllint build --device' on it to see why")
                comps += [_compare(n, result.dumps[n], ref.dumps[n], other.label())
                          for n in result.dumps if n in ref.dumps]
        for name, path in (expect or {}).items():
            if name not in result.dumps:
                raise RunnerError(f"no shown output named '{name}' to compare",
                                  f"shown outputs: {', '.join(result.dumps) or 'none'}; add ':show'")
            comps.append(_compare(name, result.dumps[name], path, path))
    return replace(result, comparisons=tuple(comps), dumps={})


def _run_once(source: Path, kernel: str, dev: DeviceInfo, desc: Launch, options: BuildOptions,
              files: diagnose.Files, timeout_s: float, memory_mb: int, dump_dir: str) -> RunResult:
    req = _request("run", source, dev, options)
    req.update(kernel=kernel, dump_dir=dump_dir, launch={
        "global_size": desc.global_size, "local_size": desc.local_size,
        "iterations": desc.iterations, "args": desc.args})
    what = f"running '{kernel}' on '{dev.name}'"
    try:
        reply = call(req, timeout_s=timeout_s, memory_mb=memory_mb, env=_env(dev), what=what)
    except WorkerStopped as exc:
        found = diagnose.oclgrind(exc.stderr, files) if dev.oclgrind else []
        if found:  # what Oclgrind saw before the end is the most useful part
            exc.hint += "; Oclgrind reported: " + "; ".join(d.message for d in found[:3])
        raise
    _raise_error(reply.data)
    data = reply.data
    b = _build_result(data, dev, files, req["options"])
    checks: list[Diagnostic] = diagnose.oclgrind(reply.stderr, files) if dev.oclgrind else []
    if not b.ok:
        return RunResult(False, kernel, dev, (), None, (), b.seconds, None, (), b.diagnostics, log=b.log)
    r = data["resolved"]
    t = data.get("timing")
    return RunResult(
        ok=not checks, kernel=kernel, device=dev, global_size=tuple(r["global_size"]),
        local_size=tuple(r["local_size"]) if r["local_size"] else None, args=tuple(r["args"]),
        build_seconds=b.seconds,
        timing=Timing(**{**t, "samples_ms": tuple(t["samples_ms"])}) if t else None,
        outputs=tuple(BufferSummary(**{**o, "first": tuple(o["first"]), "sample": tuple(o.get("sample", ()))})
                      for o in data["outputs"]),
        diagnostics=b.diagnostics + tuple(checks), log=b.log, dumps=data.get("dumps", {}),
    )


def _compare(name: str, got_path: str, ref_path: str, label: str) -> Comparison:
    import numpy as np

    got = np.load(got_path)
    try:
        ref = np.load(ref_path)
    except (OSError, ValueError) as exc:
        raise RunnerError(f"cannot load '{ref_path}': {exc}", "give a .npy file written by numpy.save") from None
    if ref.size != got.size:
        raise RunnerError(f"'{name}' has {got.size} values but '{label}' has {ref.size}",
                          "compare outputs of the same size")
    g, r = got.reshape(-1).astype(np.float64), ref.reshape(-1).astype(np.float64)
    diff = np.abs(g - r)
    rel = diff / np.maximum(np.abs(r), np.finfo(np.float64).tiny)
    exact = got.dtype.kind in "iub" and ref.dtype.kind in "iub"
    close = diff == 0 if exact else np.isclose(g, r, rtol=1e-4, atol=1e-5, equal_nan=True)
    bad = int((~close).sum())
    return Comparison(name, label, float(np.nanmax(diff)) if diff.size else 0.0,
                      float(np.nanmax(rel)) if rel.size else 0.0, bad, bad == 0)
