"""`cllint run FILE --kernel NAME`: run one kernel on a device, time it, summarise its outputs."""

from __future__ import annotations

import argparse
import json
import os
import sys

from cllint.cli.cmd_build import add_build_options, build_options, check_file, diag_json, render
from cllint.cli.main import UsageError

EPILOG = """argument descriptions (--arg NAME=SPEC, or SPEC for the next position):
  SPEC = INIT[:TYPE][:COUNT][:seed=N][:show|hide][:save=PATH]
  INIT = zeros | ones | VALUE | fill(V) | range | range(START[,STOP]) | rand | rand(LO,HI)
         | file(PATH.npy) | PATH.npy | local | local(BYTES)        scalars: a plain VALUE
examples:
  cllint run vadd.cl -k vadd
  cllint run vadd.cl -k vadd --global 1024 --arg a=rand:float:seed=1 --arg b=range --arg n=1024
  cllint run reduce.cl -k sum --global 4096 --local 128 --arg scratch=local:float:128
the same can sit above the kernel as '// cllint-run: global=1024 a=rand:float n=1024'
or in FILE.run.toml; see docs/run-on-device.md
every run is kept in .cllint/runs.jsonl (the folder of .cllint.toml, else FILE's) and compared
with the previous run of the same kernel, launch and device (CL920 slower, CL921 output
changed); 'cllint runs' lists them, --no-history leaves the file alone"""


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("run", help="run one kernel on a device",
                              description="Build FILE, run one kernel, report timing and outputs.",
                              epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", metavar="FILE")
    p.add_argument("-k", "--kernel", required=True, metavar="NAME")
    p.add_argument("--global", dest="global_size", metavar="N[,N[,N]]", help="NDRange (default: inferred)")
    p.add_argument("--local", dest="local_size", metavar="N[,N[,N]]", help="work-group size")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=SPEC", help="one argument")
    p.add_argument("-n", "--iterations", type=int, metavar="N", help="timed launches (default 10)")
    p.add_argument("--compare-device", metavar="SEL", help="run again there and compare outputs")
    p.add_argument("--expect", action="append", default=[], metavar="NAME=PATH.npy",
                   help="compare an output with a saved array")
    p.add_argument("--no-history", action="store_true",
                   help="neither record this run in .cllint/runs.jsonl nor compare it with the previous one")
    add_build_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from cllint.server.runner import RunnerError, WorkerStopped, from_cli, run as run_kernel

    source = check_file(args.file)
    if args.iterations is not None and args.iterations < 1:
        raise UsageError("--iterations must be at least 1")
    expect = {}
    for item in args.expect:
        name, eq, path = item.partition("=")
        if not eq:
            raise UsageError(f"--expect takes NAME=PATH.npy, not '{item}'")
        expect[name] = path
    launch = None
    try:
        launch = from_cli(args.global_size, args.local_size, args.iterations, args.arg)
        r = run_kernel(source, args.kernel, args.device, launch, build_options(args),
                       compare_device=args.compare_device, expect=expect,
                       timeout_s=args.timeout, memory_mb=args.memory_limit)
    except WorkerStopped as exc:
        rec = None if args.no_history else _record_failure(source, args.kernel, args.device, launch, exc)
        if args.format == "json":
            print(json.dumps({"ok": False, "error": exc.message, "hint": exc.hint,
                              "history": _history_json(rec, source)}, indent=2))
        else:
            print(f"cllint: error: {exc}")
            _history_text(rec, source)
        return 1
    except RunnerError as exc:
        raise UsageError(str(exc)) from None
    rec = None if args.no_history else _record(source, r)
    if args.format == "json":
        print(json.dumps({**_json(r, source), "history": _history_json(rec, source)}, indent=2))
    else:
        _text(r, source)
        _history_text(rec, source)
    return 0 if r.ok and all(c.ok for c in r.comparisons) else 1


def _record(source, r):
    """The run appended to the history and compared with the previous one (None: not recorded)."""
    from cllint.server.runner import history

    root = history.workspace_root(source)
    return history.record(root, history.entry(source, r.kernel, root, "cli", result=r))


def _record_failure(source, kernel, device, launch, exc):
    """A hang or a crash: recorded with the device it ran on and no time."""
    from cllint.server.runner import RunnerError, find_device, history, launch_for

    try:
        dev = find_device(device)
        requested = launch_for(source, kernel, launch) if launch is not None else None
    except (RunnerError, OSError):
        return None
    root = history.workspace_root(source)
    return history.record(root, history.entry(source, kernel, root, "cli", error=exc.message, device=dev,
                                              requested=requested))


def _history_text(rec, source) -> None:
    if rec is None:
        return
    from cllint.server.runner import history

    for w in rec.warnings:
        print(f"cllint: warning: {w}", file=sys.stderr)
    where = os.path.relpath(rec.path) if not os.path.isabs(str(source)) else str(rec.path)
    if not rec.entry.get("ok") and rec.entry.get("median_ms") is None:
        print(f"  history: {where} (recorded as a failure, with no time)")
        return
    if rec.previous is None:
        print(f"  history: {where} (the first run of this kernel, launch and device)")
        return
    when = str(rec.previous.get("time", ""))[:19].replace("T", " ")
    if rec.timing is not None:
        print(f"  vs the previous run ({when}): median {rec.timing.current_ms:.4f} ms, {rec.timing.words()} "
              f"than {rec.timing.previous_ms:.4f} ms" + ("" if rec.timing.slower or rec.timing.ratio <= 1
                                                       else " (within noise)"))
    else:
        print(f"  vs the previous run ({when}): no time to compare")
    if rec.output is None and rec.entry.get("ok"):
        print("  outputs: the same as the previous run's")
    for d in history.diagnostics(rec, source):
        print(render(d, source))
    print(f"  history: {where}")


def _history_json(rec, source) -> dict | None:
    if rec is None:
        return None
    from cllint.server.runner import history

    prev = rec.previous
    return {"file": str(rec.path), "warnings": list(rec.warnings),
            "previous": None if prev is None else {"time": prev.get("time"), "median_ms": prev.get("median_ms")},
            "ratio": rec.timing.ratio if rec.timing else None, "slower": bool(rec.timing and rec.timing.slower),
            "diagnostics": [diag_json(d, source) for d in history.diagnostics(rec, source)]}


def _json(r, source) -> dict:
    from cllint.server.runner import to_json

    out = to_json(r)
    out.pop("dumps", None)
    out["diagnostics"] = [diag_json(d, source) for d in r.diagnostics]
    return out


def _g(x: float | None) -> str:
    return "-" if x is None else f"{x:.6g}"


def _text(r, source) -> None:
    for d in r.diagnostics:
        print(render(d, source))
    if not r.global_size:
        print(f"'{r.kernel}' failed to build on '{r.device.label()}'")
        return
    local = "x".join(map(str, r.local_size)) if r.local_size else "driver's choice"
    print(f"kernel '{r.kernel}' on '{r.device.label()}'")
    print(f"  global {'x'.join(map(str, r.global_size))}, local {local}")
    for a in r.args:
        print(f"  --arg {a}")
    print(f"  build: {r.build_seconds * 1e3:.1f} ms")
    if r.timing:
        t = r.timing
        print(f"  kernel: median {t.median_ms:.4f} ms over {t.iterations} runs "
              f"(min {t.min_ms:.4f}, max {t.max_ms:.4f}, stdev {t.stdev_ms:.4f})")
    for o in r.outputs:
        first = ", ".join(_g(x) for x in o.first)
        print(f"  {o.name} [{o.dtype} x {o.count}]: {first}{', ...' if o.count > len(o.first) else ''}")
        print(f"      min {_g(o.min)}  max {_g(o.max)}  mean {_g(o.mean)}  nan {o.nan}  inf {o.inf}"
              + (f"  saved {o.saved}" if o.saved else ""))
    for c in r.comparisons:
        verdict = "ok" if c.ok else f"{c.mismatched} mismatched"
        print(f"  compare {c.name} with {c.against}: max abs error {c.max_abs_error:.3g}, "
              f"max rel error {c.max_rel_error:.3g} ({verdict})")
