"""The only module that imports pyopencl; runs in a child process (see supervisor.py).

    python -P -m cllint.server.runner.worker REQUEST.json RESULT.json   (-P: see supervisor.py)

Reads one request, writes one JSON result. While it works it writes the current phase to
RESULT.json.phase, so that if the driver or the kernel kills the process the parent can say
which step died. The parent captures stdout/stderr (Oclgrind reports on stderr).
"""

from __future__ import annotations

import json
import math
import os
import resource
import statistics
import sys
import time
import traceback
from dataclasses import asdict
from pathlib import Path
from typing import Any

from .launch import Arg, ArgInfo, Launch, resolve
from .results import RunnerError
from .selector import select

_phase_file: Path | None = None


def phase(name: str) -> None:
    if _phase_file:
        _phase_file.write_text(name)


def _info(d: Any, cl: Any, key: str, default: Any = None) -> Any:
    try:
        return d.get_info(getattr(cl.device_info, key))
    except Exception:  # older devices lack newer queries
        return default


def _devices(cl: Any, icd: str | None, base: int = 0) -> list[tuple[Any, dict]]:
    try:
        platforms = cl.get_platforms()
    except cl.Error:  # PLATFORM_NOT_FOUND_KHR: no ICD installed
        return []
    out = []
    for pi, p in enumerate(platforms):
        try:
            devs = p.get_devices()
        except cl.Error:
            continue
        for di, d in enumerate(devs):
            t = d.type
            kind = ("gpu" if t & cl.device_type.GPU else "cpu" if t & cl.device_type.CPU
                    else "accelerator" if t & cl.device_type.ACCELERATOR else "other")
            versions = _info(d, cl, "OPENCL_C_ALL_VERSIONS", []) or []
            features = _info(d, cl, "OPENCL_C_FEATURES", []) or []
            info = dict(
                index=base + len(out), platform=p.name.strip(), platform_version=p.version.strip(),
                name=d.name.strip(), vendor=d.vendor.strip(), type=kind, version=d.version.strip(),
                driver_version=d.driver_version.strip(),
                opencl_c_version=(_info(d, cl, "OPENCL_C_VERSION", "") or "").strip(),
                opencl_c_versions=[_version(v.version) for v in versions],
                features=sorted(f.name for f in features),
                extensions=" ".join(d.extensions.split()),
                compute_units=d.max_compute_units, global_mem_bytes=d.global_mem_size,
                local_mem_bytes=d.local_mem_size, max_alloc_bytes=d.max_mem_alloc_size,
                max_work_group_size=d.max_work_group_size,
                max_work_item_sizes=list(d.max_work_item_sizes),
                oclgrind="oclgrind" in p.name.lower(), icd=icd, platform_index=pi, device_index=di,
            )
            out.append((d, info))
    return out


def _version(v: int) -> str:
    return f"{v >> 22}.{(v >> 12) & 0x3FF}"


def _pick(cl: Any, req: dict) -> tuple[Any, dict]:
    found = _devices(cl, req.get("icd"))
    if req.get("platform_index") is not None:
        for d, info in found:
            if (info["platform_index"], info["device_index"]) == (req["platform_index"], req["device_index"]):
                return d, info
        raise RunnerError("the selected device went away", "run 'cllint devices' again")
    from .results import DeviceInfo

    infos = [DeviceInfo(**{**i, "opencl_c_versions": tuple(i["opencl_c_versions"]),
                          "features": tuple(i["features"]),
                          "max_work_item_sizes": tuple(i["max_work_item_sizes"])}) for _, i in found]
    chosen = select(infos, req.get("selector"))
    return found[chosen.index][0], found[chosen.index][1]


def _limit_memory(req: dict, info: dict) -> None:
    # GPU drivers reserve huge virtual ranges, so an address-space cap is only safe for CPU
    # devices, where the kernel runs inside this process; the parent watches RSS for the rest
    limit = req.get("memory_limit_bytes")
    if not limit or info["type"] != "cpu":
        return
    vm = 0
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmSize:"):
            vm = int(line.split()[1]) * 1024
    resource.setrlimit(resource.RLIMIT_AS, (vm + limit, vm + limit))


def _build(cl: Any, ctx: Any, dev: Any, req: dict) -> tuple[Any, dict]:
    phase("build")
    path = Path(req["source_path"])
    src = f'#line 1 "{path}"\n' + req["source"]
    t0 = time.perf_counter()
    prg = cl._cl._Program(ctx, src)  # the raw program: pyopencl's wrapper adds its own -I and cache
    ok = True
    try:
        prg._build(options=req["options"].encode(), devices=[dev])
    except cl.Error:
        ok = False
    seconds = time.perf_counter() - t0
    try:
        log = prg.get_build_info(dev, cl.program_build_info.LOG) or ""
    except cl.Error:
        log = ""
    kernels: list[str] = []
    if ok:
        names = prg.get_info(cl.program_info.KERNEL_NAMES) or ""
        kernels = [k for k in names.split(";") if k]
    return prg, dict(ok=ok, log=log, seconds=seconds, kernels=kernels)


def _signature(cl: Any, kernel: Any) -> list[ArgInfo]:
    aq = {cl.kernel_arg_address_qualifier.GLOBAL: "global", cl.kernel_arg_address_qualifier.LOCAL: "local",
          cl.kernel_arg_address_qualifier.CONSTANT: "constant", cl.kernel_arg_address_qualifier.PRIVATE: "private"}
    sig = []
    for i in range(kernel.num_args):
        try:
            sig.append(ArgInfo(
                kernel.get_arg_info(i, cl.kernel_arg_info.NAME),
                kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME),
                aq.get(kernel.get_arg_info(i, cl.kernel_arg_info.ADDRESS_QUALIFIER), "private"),
                bool(kernel.get_arg_info(i, cl.kernel_arg_info.TYPE_QUALIFIER)
                     & cl.kernel_arg_type_qualifier.CONST),
            ))
        except cl.Error:
            raise RunnerError("the device does not report kernel argument info",
                              "this driver ignores '-cl-kernel-arg-info'; try another device") from None
    return sig


def _array(np: Any, a: Arg, base: Path) -> Any:
    comps = 4 if a.width == 3 else a.width  # a 3-vector occupies 4 slots
    dt = np.dtype(a.dtype)
    n = a.count * comps
    if a.init == "file":
        p = Path(a.path) if Path(a.path).is_absolute() else base / a.path
        try:
            arr = np.load(p)
        except (OSError, ValueError) as exc:
            raise RunnerError(f"cannot load '{a.path}' for argument '{a.name}': {exc}",
                              "give a .npy file written by numpy.save") from None
        if arr.dtype != dt:
            raise RunnerError(f"'{a.path}' holds {arr.dtype} but argument '{a.name}' is {a.dtype}",
                              f"save it with .astype(numpy.{a.dtype})")
        return np.ascontiguousarray(arr.reshape(-1))
    if a.init == "zeros":
        return np.zeros(n, dt)
    if a.init == "ones":
        return np.ones(n, dt)
    if a.init == "fill":
        return np.full(n, a.params[0] if a.params else 0, dt)
    if a.init == "range":
        start = a.params[0] if a.params else 0.0
        step = (a.params[1] - start) / n if len(a.params) > 1 else 1.0
        return (start + np.arange(n, dtype=np.float64) * step).astype(dt)
    rng = np.random.default_rng(a.seed)
    if dt.kind == "f":
        lo, hi = (a.params + (0.0, 1.0)[len(a.params):])[:2]
        return rng.uniform(lo, hi, n).astype(dt)
    lo, hi = (a.params + (0, 100)[len(a.params):])[:2]
    return rng.integers(int(lo), int(hi), n, dtype=dt)


SAMPLE_MAX = 1024  # values of each shown buffer kept in the run history


def _sample(np: Any, flat: Any) -> tuple[int, list]:
    """(stride, every stride-th value): at most SAMPLE_MAX values, JSON-safe (non-finite as text)."""
    stride = max(1, -(-flat.size // SAMPLE_MAX))
    picked = flat[::stride]
    if flat.dtype.kind != "f":
        return stride, [int(x) for x in picked.tolist()]
    # 7 significant digits for float32 and half (10 for double): the sample compares with a
    # tolerance of 1e-4, and the history's lines stay half as long as with float64 reprs
    digits = 10 if flat.dtype.itemsize > 4 else 7
    return stride, [float(f"{x:.{digits}g}") if math.isfinite(x)
                    else ("nan" if x != x else "inf" if x > 0 else "-inf")
                    for x in picked.astype(np.float64).tolist()]


def _summary(np: Any, name: str, arr: Any, saved: str | None) -> dict:
    import hashlib

    flat = arr.reshape(-1)
    isf = flat.dtype.kind == "f"
    finite = flat[np.isfinite(flat)] if isf else flat
    f64 = finite.astype(np.float64)
    stride, sample = _sample(np, flat)
    digest = hashlib.sha256(np.ascontiguousarray(flat).tobytes()).hexdigest()
    return dict(
        name=name, dtype=str(flat.dtype), count=int(flat.size),
        first=[float(x) for x in flat[:8]],
        min=float(f64.min()) if f64.size else None, max=float(f64.max()) if f64.size else None,
        mean=float(f64.mean()) if f64.size else None,
        nan=int(np.isnan(flat).sum()) if isf else 0, inf=int(np.isinf(flat).sum()) if isf else 0,
        saved=saved, digest=f"sha256:{digest}", stride=stride, sample=sample,
    )


_HINTS = {
    "INVALID_WORK_GROUP_SIZE": "use a local size that divides the global size and fits the device's "
                               "max work-group size ({wg}); or leave --local out",
    "INVALID_GLOBAL_WORK_SIZE": "use a global size the device accepts",
    "OUT_OF_RESOURCES": "the kernel needs more registers or local memory than the device has; "
                        "try a smaller local size",
    "MEM_OBJECT_ALLOCATION_FAILURE": "make the buffers smaller",
    "INVALID_BUFFER_SIZE": "make the buffers smaller (or non-empty)",
}


def _run(cl: Any, req: dict) -> dict:
    import numpy as np

    dev, info = _pick(cl, req)
    _limit_memory(req, info)
    ctx = cl.Context([dev])
    q = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    prg, b = _build(cl, ctx, dev, req)
    result: dict = dict(device=info, build=b)
    if not b["ok"] or req["op"] == "build":
        return result
    name = req["kernel"]
    if name not in b["kernels"]:
        listed = ", ".join(f"'{k}'" for k in b["kernels"]) or "none"
        raise RunnerError(f"no kernel named '{name}' in '{req['source_path']}'",
                          f"kernels there: {listed}")
    phase("setup")
    kernel = cl.Kernel(prg, name)
    sig = _signature(cl, kernel)
    spec = Launch(**{**req["launch"], "global_size": _t(req["launch"]["global_size"]),
                     "local_size": _t(req["launch"]["local_size"]), "sources": ()})
    res = resolve(spec, sig, name, info["max_work_group_size"])
    result["resolved"] = dict(global_size=res.global_size, local_size=res.local_size,
                              iterations=res.iterations, args=[a.spec() for a in res.args])
    base = Path(req["source_path"]).parent
    mf = cl.mem_flags
    host: dict[str, Any] = {}
    bufs: dict[str, Any] = {}
    for i, a in enumerate(res.args):
        if a.kind == "buffer":
            arr = _array(np, a, base)
            if arr.nbytes == 0:
                raise RunnerError(f"argument '{a.name}' would be an empty buffer", "give it a count")
            host[a.name] = arr
            bufs[a.name] = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=arr)
            kernel.set_arg(i, bufs[a.name])
        elif a.kind == "local":
            comps = 4 if a.width == 3 else a.width
            kernel.set_arg(i, cl.LocalMemory(a.count * comps * np.dtype(a.dtype).itemsize))
        else:
            comps = 4 if a.width == 3 else a.width
            val = np.full(comps, a.value, np.dtype(a.dtype))
            kernel.set_arg(i, val if comps > 1 else val[0])
    phase("run")
    try:
        ev = cl.enqueue_nd_range_kernel(q, kernel, res.global_size, res.local_size)
        ev.wait()
        q.finish()
    except cl.Error as exc:
        code = getattr(exc, "what", None)
        key = code.what() if code is not None and callable(getattr(code, "what", None)) else str(exc)
        hint = next((h for k, h in _HINTS.items() if k in key), "check the launch description")
        raise RunnerError(f"launch of '{name}' failed: {key.strip()}",
                          hint.format(wg=info["max_work_group_size"])) from None
    phase("read")
    outputs = []
    dumps: dict[str, str] = {}
    for a in res.args:
        if a.kind != "buffer" or not a.show:
            continue
        arr = np.empty_like(host[a.name])
        cl.enqueue_copy(q, arr, bufs[a.name])
        if a.width > 1:
            arr = arr.reshape(-1, 4 if a.width == 3 else a.width)[:, : a.width]
        saved = None
        if a.save:
            p = Path(a.save) if Path(a.save).is_absolute() else Path.cwd() / a.save
            np.save(p, arr)
            saved = str(p)
        if req.get("dump_dir"):
            dumps[a.name] = str(Path(req["dump_dir"]) / f"{a.name}.npy")
            np.save(dumps[a.name], arr)
        outputs.append(_summary(np, a.name, arr, saved))
    phase("time")
    samples = []
    for _ in range(res.iterations):
        ev = cl.enqueue_nd_range_kernel(q, kernel, res.global_size, res.local_size)
        ev.wait()
        samples.append((ev.profile.end - ev.profile.start) * 1e-6)
    result.update(outputs=outputs, dumps=dumps, timing=_timing(samples))
    return result


def _t(v: Any) -> tuple[int, ...] | None:
    return tuple(v) if v else None


def _timing(samples: list[float]) -> dict | None:
    if not samples:
        return None
    return dict(iterations=len(samples), samples_ms=samples, median_ms=statistics.median(samples),
                min_ms=min(samples), max_ms=max(samples),
                stdev_ms=statistics.stdev(samples) if len(samples) > 1 else 0.0)


def handle(req: dict) -> dict:
    phase("load driver")
    try:
        import pyopencl as cl
    except ImportError:
        raise RunnerError("pyopencl is not installed", "pip install 'cllint[device]'") from None
    if req["op"] == "devices":
        phase("list devices")
        return dict(devices=[info for _, info in _devices(cl, req.get("icd"), req.get("base", 0))])
    return _run(cl, req)


def main(argv: list[str]) -> int:
    global _phase_file
    req_path, res_path = Path(argv[0]), Path(argv[1])
    _phase_file = Path(str(res_path) + ".phase")
    req = json.loads(req_path.read_text())
    try:
        out = handle(req)
    except RunnerError as exc:
        out = dict(error=dict(message=exc.message, hint=exc.hint))
    except MemoryError:
        out = dict(error=dict(message="the worker ran out of memory (memory limit)",
                              hint="raise --memory-limit or make the buffers smaller"))
    except Exception as exc:  # a driver error we did not foresee: report it, don't crash
        out = dict(error=dict(message=f"{type(exc).__name__}: {exc}".strip(),
                              hint="", traceback=traceback.format_exc()))
    res_path.write_text(json.dumps(out, default=_json_default))
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)  # skip driver teardown, which can itself hang or crash


def _json_default(o: Any) -> Any:
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "__dataclass_fields__"):
        return asdict(o)
    return str(o)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
