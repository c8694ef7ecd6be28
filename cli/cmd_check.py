"""`cllint check`: lint OpenCL C files for CI and pre-commit."""

from __future__ import annotations

import argparse
import fnmatch
import sys
from collections.abc import Callable
from pathlib import Path

from cllint.analysis.records import replace
from cllint.analysis import registry
from cllint.analysis.diagnostics import Severity
from cllint.analysis.lint import LintOptions
from cllint.analysis.target import Target, TargetError
from cllint.cli import render
from cllint.cli.engine import MAX_BYTES, Job, apply_fixes, lint_source, run_all
from cllint.cli.main import UsageError
from cllint.cli.sources import discover
from cllint.project.model import apply_configured, configured_program
from cllint.config import ConfigError, Settings, declared_launches, find_config, load_config, merge
from cllint.config import lint_options as config_lint_options

FORMATS = ("text", "json", "sarif", "github")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="lint files", description="Lint OpenCL C files.")
    p.add_argument("paths", nargs="*", default=["."], metavar="PATH",
                   help="files, folders (searched for .cl, .clh, .ocl, .opencl, and Python/C/C++ hosts of OpenCL), globs, or - for stdin")
    p.add_argument("--stdin-filename", metavar="NAME", help="path to report for stdin input")
    p.add_argument("--std", choices=["CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"],
                   help="the OpenCL C version the source is written in, as clang's -cl-std (portability mode at it; "
                        "--target CL2.0 checks against a device of that version)")
    p.add_argument("--features", metavar="LIST",
                   help="feature/extension overrides, as clang's -cl-ext: -all,+__opencl_c_fp64,-cl_khr_fp16")
    p.add_argument("--target", metavar="PRESET", help="target preset (CL1.2, CL3.0-all, ...) or device:N")
    p.add_argument("-I", dest="include", action="append", metavar="DIR", help="include search path")
    p.add_argument("-D", dest="define", action="append", metavar="NAME[=VALUE]", help="define a macro")
    p.add_argument("--include", "-include", dest="force_include", action="append", metavar="FILE",
                   help="read FILE before each file, as the compiler's -include (a header the build force-includes)")
    p.add_argument("--select", metavar="CODES", help="comma-separated codes or prefixes to enable")
    p.add_argument("--ignore", metavar="CODES", help="comma-separated codes or prefixes to disable")
    p.add_argument("--extend-select", metavar="CODES", help="codes or prefixes to enable on top of the selection")
    p.add_argument("--preview", action="store_true", help="also run preview rules (unstable, opt-in)")
    p.add_argument("--format", choices=FORMATS, default="text")
    p.add_argument("--fix", action="store_true", help="apply safe fixes")
    p.add_argument("--unsafe-fixes", action="store_true", help="with --fix, apply unsafe fixes too")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when problems are found")
    p.add_argument("--statistics", action="store_true", help="count problems per rule")
    p.add_argument("--no-cache", action="store_true", help="do not read or write the result cache")
    p.add_argument("--workspace", metavar="DIR",
                   help="read the files named through the programs the workspace DIR builds, as "
                        "'cllint check DIR' reads them (pre-commit's hook names the changed files)")
    p.add_argument("--budget", type=float, metavar="SECONDS",
                   help="time for the rules of one file; past it, the rest are skipped and CL091 says so")
    p.add_argument("--compiler", choices=["clang"],
                   help="also run clang-19 -fsyntax-only on each file and report its errors no rule found (CL099)")
    p.add_argument("--quiet", "-q", action="store_true", help="print diagnostics only, no summary")
    p.set_defaults(func=run)


def _codes(value: str | None, what: str) -> list[str] | None:
    if value is None:
        return None
    codes = [c.strip().upper() for c in value.split(",") if c.strip()]
    for c in codes:
        if not registry.is_valid_selector(c):
            raise UsageError(f"{what}: unknown rule code or prefix '{c}' (see 'cllint rules')")
    return codes


def _defines(values: list[str] | None) -> dict[str, str] | None:
    if not values:
        return None
    from cllint.config import is_define_name

    out = {}
    for v in values:
        name, _, value = v.partition("=")
        if not is_define_name(name):  # NAME, or NAME(a,b) for a function-like macro
            raise UsageError(f"-D {v}: '{name}' is not a macro name")
        out[name] = value if "=" in v else "1"
    return out


def _overrides(args: argparse.Namespace) -> dict[str, object]:
    return {
        "std": args.std,
        "target": args.target,
        "features": args.features,
        "include": args.include,
        "define": _defines(args.define),
        "select": _codes(args.select, "--select"),
        "ignore": _codes(args.ignore, "--ignore"),
        "extend_select": _codes(args.extend_select, "--extend-select"),
        "preview": True if args.preview else None,
    }


class SettingsResolver:
    """Finds and loads the configuration for each file's folder, once per folder."""

    def __init__(self, overrides: dict[str, object]):
        self.overrides = overrides
        self._by_dir: dict[Path, tuple[Settings, LintOptions]] = {}
        self._by_config: dict[Path | None, tuple[Settings, LintOptions]] = {}

    def for_file(self, path: Path) -> tuple[Settings, LintOptions]:
        folder = path.resolve().parent
        if folder not in self._by_dir:
            config = find_config(folder)
            if config not in self._by_config:
                base = load_config(config, registry.is_valid_selector) if config else Settings()
                settings = merge(base, self.overrides)
                self._by_config[config] = (settings, _lint_options(settings))
            self._by_dir[folder] = self._by_config[config]
        return self._by_dir[folder]


def _device_reader(index: int) -> Target:
    """`--target device:N`: the static target read off a real device, so that static
    checks and the device compiler agree."""
    from cllint.server.runner import RunnerError, device_profile

    try:
        p = device_profile(str(index))
    except RunnerError as exc:
        raise TargetError(f"target 'device:{index}': {exc}") from None
    return Target.from_device(p["opencl_c_version"], p["features"], p["extensions"], name=f"device:{index}")


def _lint_options(settings: Settings) -> LintOptions:
    return config_lint_options(settings, _device_reader)


def _hidden_hint(settings: Settings, d) -> bool:  # noqa: ANN001 - a Diagnostic
    """A hint (a deprecation, CL304) is for editors: the command line shows it, and counts it
    in its exit status, only when its code is selected by name (`--select CL304`; issue 30)."""
    if d.severity is not Severity.HINT:
        return False
    named = {c.upper() for c in (*(settings.select or ()), *settings.extend_select)}
    return d.code not in named


def _per_file_ignored(settings: Settings, path: Path, code: str) -> bool:
    text = path.as_posix()
    for glob, codes in settings.per_file_ignores.items():
        if fnmatch.fnmatch(text, glob) or fnmatch.fnmatch(path.name, glob):
            if any(code.startswith(c.upper()) for c in codes):
                return True
    return False


def _progress(stream):
    if not stream.isatty():
        return None

    def show(done: int, total: int) -> None:
        if total < 50:
            return
        width = 30
        filled = width * done // total
        stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} files")
        if done == total:
            stream.write("\r" + " " * (width + 30) + "\r")
        stream.flush()

    return show


def run(args: argparse.Namespace) -> int:
    if args.unsafe_fixes and not args.fix:
        raise UsageError("--unsafe-fixes needs --fix")
    clang = _clang(args)
    try:
        resolver = SettingsResolver(_overrides(args))
        results, io_errors, fixed, options_of = _check(args, resolver)
        if clang is not None:
            results = _with_compiler(clang, results, resolver, options_of)
    except (ConfigError, TargetError) as exc:
        raise UsageError(str(exc)) from None

    out = sys.stdout
    if args.format == "json":
        render.json_output(results, out)
    elif args.format == "sarif":
        render.sarif(results, out)
    elif args.format == "github":
        render.github(results, out)
    else:
        render.text(results, out, color=render.use_color(out))
    if args.statistics:
        render.statistics(results, sys.stderr if args.format != "text" else out)
    if not args.quiet and args.format == "text":
        render.summary_line(results, fixed)
    problems = sum(len(r.diagnostics) for r in results)
    if io_errors:
        return 2
    return 0 if (problems == 0 or args.exit_zero) else 1


def _clang(args: argparse.Namespace) -> str | None:
    """The clang to run (checked before any linting), or None without --compiler."""
    if args.compiler is None:
        return None
    from cllint.compiler import CompilerMissing, require_clang

    try:
        return require_clang()
    except CompilerMissing as exc:
        raise UsageError(str(exc)) from None


def _with_compiler(clang: str, results: list[render.FileResult], resolver: SettingsResolver,
                   options_of: dict[str, LintOptions]) -> list[render.FileResult]:
    """Each OpenCL file's clang errors that no rule reported on the line (CL099), on
    threads: each run is a clang process, so the GIL is no bottleneck."""
    import os
    from concurrent.futures import ThreadPoolExecutor

    from cllint.analysis.embedded import host_language
    from cllint.compiler import check

    def one(r: render.FileResult) -> render.FileResult:
        if host_language(r.path) is not None:
            return r  # kernels inside host code: their text is not a file clang can read
        path = Path(r.path) if r.path != "<stdin>" else Path("stdin.cl")
        settings, options = resolver.for_file(path)
        options = options_of.get(r.path, options)  # with the file's program, as the rules read it
        extra = [d for d in check(clang, r.path, r.source, options, path.resolve().parent, r.diagnostics)
                 if not _per_file_ignored(settings, path, d.code)]
        if not extra:
            return r
        diags = sorted([*r.diagnostics, *extra], key=lambda d: (d.span.start, d.span.end, d.code))
        return replace(r, diagnostics=diags)

    with ThreadPoolExecutor(max_workers=min(8, os.cpu_count() or 1)) as pool:
        return list(pool.map(one, results))


def _read_inputs(args, resolver):
    inputs: list[tuple[str, Path, bytes]] = []
    io_errors = 0
    if args.paths == ["-"]:
        name = args.stdin_filename or "<stdin>"
        inputs.append((name, Path(args.stdin_filename or "stdin.cl"), sys.stdin.buffer.read()))
        return inputs, io_errors
    if "-" in args.paths:
        raise UsageError("'-' (stdin) cannot be combined with other paths")
    # Exclusions come from the configuration nearest the working folder.
    exclude = resolver.for_file(Path.cwd() / "x")[0].exclude
    for path in discover(args.paths, exclude):
        try:
            if path.stat().st_size > MAX_BYTES:
                print(f"cllint: {path}: file larger than 64 MiB, skipped", file=sys.stderr)
                continue
            data = path.read_bytes()
        except OSError as exc:
            print(f"cllint: error: {path}: cannot read file ({exc.strerror or exc})", file=sys.stderr)
            io_errors += 1
            continue
        if b"\x00" in data[:8192]:
            print(f"cllint: {path}: binary file, skipped", file=sys.stderr)
            continue
        inputs.append((str(path), path, data))
    return inputs, io_errors


def _programs(args, inputs: list[tuple[str, Path, bytes]]) \
        -> tuple[dict[Path, Callable[[LintOptions], LintOptions]], dict[Path, tuple[tuple[str, int], ...]]]:
    """Per OpenCL file, what its program changes in its options (cllint/project/model.py),
    and per host file of the workspace, the files its lists join that do not exist.
    The workspace is the folders named, or the folders of the files named alone."""
    from cllint.project.model import NO_CONTEXT, Project

    paths = [path for name, path, data in inputs if name != "<stdin>"]
    if not paths:
        return {}, {}
    folders = [Path(raw) for raw in args.paths if raw != "-" and Path(raw).is_dir()]
    if not folders and getattr(args, "workspace", None):
        folders = [Path(args.workspace)]  # files named (pre-commit's changed ones) read as `check DIR`
    try:
        project = Project(folders, [] if folders else paths)
        contexts = {p: ctx.apply for p, ctx in project.contexts(paths).items() if ctx is not NO_CONTEXT}
        return contexts, project.missing_files()
    except Exception as exc:  # a workspace that cannot be read: each file is still checked alone
        print(f"cllint: warning: the project model failed ({type(exc).__name__}: {exc}); "
              "files are checked alone", file=sys.stderr)
        return {}, {}


def _missing_files(results: list[render.FileResult], missing: dict[Path, tuple[tuple[str, int], ...]],
                   resolver: SettingsResolver) -> list[render.FileResult]:
    """CL002 on host lines whose list joins a file that does not exist, in the host's result
    (a host file not otherwise checked gets one)."""
    if not missing:
        return results
    from cllint.project.listed_files import missing_reports  # (hosts with lists only)

    by_path = {Path(r.path).resolve(): i for i, r in enumerate(results) if r.path != "<stdin>"}
    out = list(results)
    for host, entries in sorted(missing.items()):
        settings, options = resolver.for_file(host)
        if "CL002" not in {r.code for r in options.rules()}:
            continue
        i = by_path.get(host)
        if i is None:
            try:
                data = host.read_bytes()
            except OSError:
                continue
            name = _shown_name(host)
            diags = [d for d in missing_reports(name, data, entries) if not _per_file_ignored(settings, host, d.code)]
            if diags:
                out.append(render.FileResult(name, data, diags))
            continue
        r = out[i]
        diags = [d for d in missing_reports(r.path, r.source, entries) if not _per_file_ignored(settings, host, d.code)]
        out[i] = replace(r, diagnostics=sorted([*r.diagnostics, *diags], key=lambda d: (d.span.start, d.span.end, d.code)))
    return out


def _shown_name(path: Path) -> str:
    """`path` as the files found under the working folder are named (relative when inside it)."""
    try:
        return str(path.relative_to(Path.cwd().resolve()))
    except ValueError:
        return str(path)


def _force_included(args) -> tuple[str, ...]:
    out = []
    for raw in args.force_include or ():
        path = Path(raw)
        if not path.is_file():
            raise UsageError(f"--include {raw}: no such file")
        out.append(str(path.resolve()))
    return tuple(out)


def _freeze_start_up(args, jobs: list[Job] | None = None) -> None:
    """As a program (`main` paused the collector while it imported), freeze what start-up
    made and collect from here on: ~100,000 modules' objects, classes and tables that live to
    the end, which every later full collection would otherwise read again (issue 32). Before
    the lint (`jobs`), once more with the selected rule families imported."""
    if not getattr(args, "start_up_paused", False):
        return
    import gc

    gc.disable()
    if jobs:
        jobs[0].options.rules()  # (the families the selection names: imported now, frozen too)
    gc.freeze()
    gc.enable()


def _check(args, resolver: SettingsResolver):
    _freeze_start_up(args)
    forced = _force_included(args)
    inputs, io_errors = _read_inputs(args, resolver)
    programs, missing = _programs(args, inputs)
    jobs, settings_of = [], []
    for name, path, data in inputs:
        settings, options = resolver.for_file(path)
        if settings.launches:  # `[[launch]]`: how the host launches the file's kernels
            options = replace(options, launches=declared_launches(settings, path))
        configured = configured_program(settings.programs, path) if settings.programs else None
        if configured is not None:  # a `[[program]]` says how the host builds it: that, nothing guessed
            options = apply_configured(*configured, options, settings)
        else:
            options = programs.get(path.resolve(), lambda o: o)(options)
        if forced:  # the command line's -include files come first, as the compiler reads them
            options = replace(options, prelude=(*forced, *options.prelude))
        if args.budget is not None:
            options = replace(options, budget=args.budget)
        settings_of.append(settings)
        jobs.append(Job(name, data, options, use_cache=not args.no_cache and name != "<stdin>"))
    _freeze_start_up(args, jobs)
    all_diags = run_all(jobs, _progress(sys.stderr))

    results, fixed = [], 0
    for (name, path, data), job, settings, diags in zip(inputs, jobs, settings_of, all_diags):
        diags = [d for d in diags if not _per_file_ignored(settings, path, d.code) and not _hidden_hint(settings, d)]
        if args.fix and diags:
            new, n = apply_fixes(data, diags, args.unsafe_fixes)
            if n:
                fixed += n
                if name == "<stdin>" or args.paths == ["-"]:
                    sys.stdout.buffer.write(new)
                else:
                    path.write_bytes(new)
                data = new
                diags = [d for d in lint_source(name, new, job.options)
                         if not _per_file_ignored(settings, path, d.code) and not _hidden_hint(settings, d)]
        results.append(render.FileResult(name, data, diags))
    results = _missing_files(results, missing, resolver)
    return results, io_errors, fixed, {job.path: job.options for job in jobs}
