"""`cllint server`: the language server over stdio (default) or TCP."""

from __future__ import annotations

import argparse
import logging

from cllint.cli.main import UsageError


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("server", help="run the language server (LSP)",
                              description="Run the OpenCL C language server over stdio or TCP.")
    p.add_argument("--tcp", metavar="HOST:PORT", help="listen on a TCP socket instead of stdio")
    p.add_argument("--log-level", default="WARNING", choices=("DEBUG", "INFO", "WARNING", "ERROR"))
    p.set_defaults(func=run)


def _address(value: str) -> tuple[str, int]:
    host, sep, port = value.rpartition(":")
    if not sep or not port.isdigit():
        raise UsageError(f"--tcp expects HOST:PORT, got '{value}'")
    return host or "127.0.0.1", int(port)


def run(args: argparse.Namespace) -> int:
    logging.basicConfig(level=args.log_level, format="%(levelname)s %(name)s: %(message)s")
    from cllint.server.handlers import create_server

    server = create_server()
    if args.tcp:
        server.start_tcp(*_address(args.tcp))
    else:
        server.start_io()
    return 0
