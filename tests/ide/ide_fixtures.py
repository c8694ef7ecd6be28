"""Fixtures for analysis/ide unit tests: a source with a `$0` cursor in a fresh Host."""

from __future__ import annotations

from cllint.analysis.db import Host
from cllint.analysis.lint import LintOptions
from cllint.analysis.target import Target

FILE = "main.cl"


def snapshot(src: str, std: str = "CL1.2", files: dict[str, str] | None = None, resolver=None):
    """(snapshot, cursor offset or None) with `src` as FILE; `files` are further open files."""
    data = src.encode()
    cursor = data.find(b"$0")
    data = data.replace(b"$0", b"")
    host = Host(LintOptions(target=Target.preset(std)), include_resolver=resolver)
    host.set_file(FILE, data)
    for name, text in (files or {}).items():
        host.set_file(name, text.encode())
    return host.snapshot(), (cursor if cursor >= 0 else None)
