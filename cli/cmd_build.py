"""`cllint build FILE`: clBuildProgram on a real device, its log as CL901/CL902 diagnostics."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from cllint.analysis.diagnostics import Diagnostic, Span
from cllint.cli.main import UsageError
from cllint.cli.paths import as_given


def add_build_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--device", metavar="SEL", help="device selector (see 'cllint devices')")
    p.add_argument("--std", choices=("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"),
                   help="OpenCL C version passed as -cl-std")
    p.add_argument("-I", dest="include", action="append", default=[], metavar="DIR", help="include path")
    p.add_argument("-D", dest="define", action="append", default=[], metavar="NAME[=VALUE]", help="define")
    p.add_argument("--build-options", default="", metavar="OPTS", help="more clBuildProgram options")
    p.add_argument("--timeout", type=float, default=60.0, metavar="S", help="worker time limit (default 60)")
    p.add_argument("--memory-limit", type=int, default=4096, metavar="MIB",
                   help="worker memory limit in MiB (default 4096)")
    p.add_argument("--format", choices=("text", "json"), default="text")


def build_options(args: argparse.Namespace):  # -> BuildOptions, imported lazily
    from cllint.server.runner import BuildOptions

    for d in args.include:
        if not Path(d).is_dir():
            raise UsageError(f"include directory '{d}' does not exist")
    return BuildOptions(args.std, tuple(args.include), tuple(args.define), args.build_options)


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("build", help="compile with the device's OpenCL compiler",
                              description="Build FILE with clBuildProgram on a device and report the "
                              "build log as diagnostics (CL901 errors, CL902 warnings).")
    p.add_argument("file", metavar="FILE")
    add_build_options(p)
    p.set_defaults(func=run)


def check_file(path: str) -> Path:
    p = Path(path)
    if not p.is_file():
        raise UsageError(f"'{path}' is not a file")
    return p


def run(args: argparse.Namespace) -> int:
    from cllint.server.runner import RunnerError, WorkerStopped, build, to_json

    source = check_file(args.file)
    try:
        r = build(source, args.device, build_options(args), args.timeout, args.memory_limit)
    except WorkerStopped as exc:
        print(f"cllint: error: {exc}")
        return 1
    except RunnerError as exc:
        raise UsageError(str(exc)) from None
    if args.format == "json":
        print(json.dumps({"ok": r.ok, "device": to_json(r.device), "options": r.options,
                          "build_seconds": r.seconds, "kernels": list(r.kernels),
                          "diagnostics": [diag_json(d, source) for d in r.diagnostics], "log": r.log}, indent=2))
    else:
        for d in r.diagnostics:
            print(render(d, source))
        status = "built" if r.ok else "failed to build"
        kernels = f"; kernels: {', '.join(r.kernels)}" if r.kernels else ""
        print(f"{source}: {status} on '{r.device.label()}' in {r.seconds:.3f} s{kernels}")
    return 0 if r.ok and not r.diagnostics else 1


def line_col(span: Span) -> tuple[int, int]:
    try:
        data = Path(span.file).read_bytes()[: span.start]
    except OSError:
        return 1, 1
    return data.count(b"\n") + 1, span.start - (data.rfind(b"\n") + 1) + 1


def _where(span: Span, given: Path) -> str:
    line, col = line_col(span)
    return f"{as_given(span.file, given)}:{line}:{col}"


def render(d: Diagnostic, given: Path) -> str:
    """One diagnostic and its notes; `given` is the main file as the user named it."""
    lines = [f"{_where(d.span, given)}: {d.code} {d.message}"]
    lines += [f"  {_where(n.span, given)}: note: {n.message}" for n in d.notes]
    return "\n".join(lines)


def diag_json(d: Diagnostic, given: Path) -> dict:
    line, col = line_col(d.span)
    return {"code": d.code, "severity": d.severity.value, "message": d.message,
            "file": as_given(d.span.file, given), "line": line, "column": col, "start": d.span.start,
            "end": d.span.end,
            "notes": [{"file": as_given(n.span.file, given), "line": line_col(n.span)[0],
                       "column": line_col(n.span)[1], "message": n.message} for n in d.notes]}
