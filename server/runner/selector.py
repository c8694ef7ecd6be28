"""Device selectors, as `--device` takes them.

    (none)      the first device that is not Oclgrind (CLLINT_DEVICE overrides)
    3           the device with that index in `cllint devices`
    0:1         platform 0, device 1 (indices within `cllint devices`' platforms)
    cpu | gpu   the first device of that type (Oclgrind excluded)
    oclgrind    the Oclgrind simulator (checking device)
    TEXT        the first device whose 'platform device' name contains TEXT (case-insensitive)
"""

from __future__ import annotations

import os

from .results import DeviceInfo, RunnerError

TYPES = ("cpu", "gpu", "accelerator")


def select(devices: list[DeviceInfo], selector: str | None) -> DeviceInfo:
    if not devices:
        raise RunnerError(
            "no OpenCL platform found",
            "install an OpenCL driver, e.g. 'apt-get install pocl-opencl-icd' for the CPU "
            "or 'oclgrind' for the checking device, and check /etc/OpenCL/vendors/*.icd",
        )
    sel = (selector or os.environ.get("CLLINT_DEVICE") or "").strip()
    found = _match(devices, sel)
    if found is None and sel.lower() == "oclgrind":
        raise RunnerError(
            "Oclgrind is not installed (or its OpenCL driver did not load)",
            "install it with 'apt-get install oclgrind'; cllint finds it on PATH or in /usr/lib/oclgrind, "
            "and CLLINT_OCLGRIND_ICD may name its liboclgrind-rt-icd.so",
        )
    if found is None:
        names = ", ".join(f"{d.index}: {d.label()}" for d in devices)
        raise RunnerError(f"no device matches '{sel}'", f"run 'cllint devices'; available: {names}")
    return found


def _match(devices: list[DeviceInfo], sel: str) -> DeviceInfo | None:
    real = [d for d in devices if not d.oclgrind]
    low = sel.lower()
    if not sel:
        return (real or devices)[0]
    if sel.isdigit():
        i = int(sel)
        return devices[i] if i < len(devices) else None
    if ":" in sel and all(p.isdigit() for p in sel.split(":", 1)):
        p, d = (int(x) for x in sel.split(":", 1))
        platforms = list(dict.fromkeys((x.icd, x.platform_index) for x in devices))
        if p >= len(platforms):
            return None
        same = [x for x in devices if (x.icd, x.platform_index) == platforms[p]]
        return same[d] if d < len(same) else None
    if low == "oclgrind":
        return next((d for d in devices if d.oclgrind), None)
    if low in TYPES:
        return next((d for d in real if d.type == low), None)
    return next((d for d in devices if low in f"{d.platform} {d.name}".lower()), None)
