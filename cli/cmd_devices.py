"""`cllint devices`: every OpenCL platform and device, and how to select one."""

from __future__ import annotations

import argparse
import json

from cllint.cli.main import UsageError

SELECTORS = """selectors (--device): an index from this list, P:D (platform, device),
'cpu', 'gpu', 'oclgrind', or any part of the platform or device name"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("devices", help="list OpenCL platforms and devices",
                              description="List OpenCL platforms and devices.", epilog=SELECTORS)
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.set_defaults(func=run)


def _mib(n: int) -> str:
    if n < 2**20:
        return f"{n / 2**10:,.0f} KiB"
    return f"{n / 2**20:,.0f} MiB" if n < 2**30 else f"{n / 2**30:,.1f} GiB"


def run(args: argparse.Namespace) -> int:
    from cllint.server.runner import RunnerError, list_devices, to_json

    try:
        devices = list_devices()
    except RunnerError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "json":
        print(json.dumps({"devices": to_json(devices), "selectors": SELECTORS.split(": ", 1)[1]}, indent=2))
        return 0 if devices else 2
    if not devices:
        raise UsageError("no OpenCL platform found\n  = help: install an OpenCL driver, e.g. "
                         "'apt-get install pocl-opencl-icd' or 'oclgrind'")
    platform = None
    for d in devices:
        if (d.platform, d.icd) != platform:
            platform = (d.platform, d.icd)
            via = f" (via {d.icd})" if d.icd else ""
            print(f"{d.platform}  {d.platform_version}{via}")
        print(f"  [{d.index}] {d.name}  ({d.type}{', checking device' if d.oclgrind else ''})")
        print(f"      version: {d.version}; driver {d.driver_version}")
        accepted = ", ".join(d.opencl_c_versions)
        print(f"      OpenCL C: {d.opencl_c_version}" + (f" (accepts {accepted})" if accepted else ""))
        print(f"      compute units: {d.compute_units}; max work-group size: {d.max_work_group_size}; "
              f"work-item sizes: {'x'.join(map(str, d.max_work_item_sizes))}")
        print(f"      memory: global {_mib(d.global_mem_bytes)}, local {_mib(d.local_mem_bytes)}, "
              f"max allocation {_mib(d.max_alloc_bytes)}")
        if d.features:
            print(f"      features: {' '.join(d.features)}")
        print(f"      extensions: {d.extensions or '(none)'}")
    print()
    print(SELECTORS)
    return 0
