"""`cllint` entry point: dispatches to one module per subcommand.

Each command module exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable `(args) -> int` returning the exit status
(0 clean, 1 diagnostics reported, 2 usage or configuration error).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from typing import Any

from cllint import __version__

# Modules under cllint.cli that provide subcommands, in `--help` order.
COMMANDS = [
    "check",
    "rules",
    "explain",
    "builtins",
    "inspect",
    "server",
    "devices",
    "build",
    "run",
    "runs",
]


class UsageError(Exception):
    """A problem with how cllint was called or configured (exit status 2)."""


def _columns() -> int:
    """`shutil.get_terminal_size().columns`, without importing shutil (and with it bz2 and
    lzma: ~2 ms of every start-up, since argparse makes a formatter for each argument)."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24,
                 width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


class _RawDescription(_Formatter, argparse.RawDescriptionHelpFormatter):
    pass


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        given = kwargs.get("formatter_class")
        if given is None or given is argparse.HelpFormatter:
            kwargs["formatter_class"] = _Formatter
        elif given is argparse.RawDescriptionHelpFormatter:
            kwargs["formatter_class"] = _RawDescription
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> None:  # argparse exits 2 too, but prints usage noise
        self.exit(2, f"cllint: error: {message}\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The whole command line, or with `only` just that subcommand: importing every
    command module (the device runner, the server) costs start-up that `check` never uses."""
    parser = _Parser(prog="cllint", description="Language server and linter for OpenCL C")
    parser.add_argument("--version", action="version", version=f"cllint {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name in [only] if only in COMMANDS else COMMANDS:
        try:
            module = importlib.import_module(f"cllint.cli.cmd_{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cllint.cli.cmd_{name}":
                continue  # command not built yet
            raise
        module.register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    try:
        return _run(argv, words)
    finally:
        if argv is None and words and words[0] == "check":
            # The process ends next: its shutdown collects every generation about three times
            # over the ~20,000 objects start-up made (modules, classes, tables), ~30M
            # instructions on a one-line kernel (9% of the run). Frozen objects are skipped;
            # they are still freed by reference counting and module teardown as before. Only
            # as a program: a caller in-process (tests) keeps its collector as it was.
            import gc

            gc.freeze()


def _run(argv: list[str] | None, words: list[str]) -> int:
    if words and words[0] == "check":
        # Start-up allocates ~20,000 objects that live to the end (modules, classes, tables):
        # the default threshold (700) collects 30-odd times over them, 3-4% of a small run.
        # A young collection per 100,000 allocations keeps the memory bound (+3 MB on a 1,500-line
        # kernel, none on a 2.4 MB one) and skips most of that; the whole heap the lint keeps (trees,
        # memos) is walked every 100 young collections, so fewer of those count most (10,000 before:
        # 1.3% more instructions on the generated 1,500-line kernel).
        import gc

        gc.set_threshold(100_000, 10, 10)
        if argv is None:
            # As a program, start-up's objects live to the end: the collector waits until the
            # rules are loaded (cmd_check freezes what start-up made, then turns it back on).
            gc.disable()
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(argv)
    if argv is None and words and words[0] == "check":
        args.start_up_paused = True
    if not getattr(args, "func", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"cllint: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # `cllint ... | head`: the reader left; exit quietly like other Unix tools.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
