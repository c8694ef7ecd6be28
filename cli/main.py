"""`cllint` entry point: dispatches to one module per subcommand.

Each command module exposes `register(subparsers)`, which adds its parser and sets
`func` to a callable `(args) -> int` returning the exit status
(0 clean, 1 diagnostics reported, 2 usage or configuration error).
"""

from __future__ import annotations

import argparse
import importlib
import sys

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


class _Parser(argparse.ArgumentParser):
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
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(argv)
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
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 1


if __name__ == "__main__":
    sys.exit(main())
