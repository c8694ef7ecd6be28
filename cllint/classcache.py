"""Compiled-code cache for the methods `dataclasses` generates, so start-up skips compiling them.

Every `@dataclass` compiles the source of its `__init__`, `__eq__`, `__repr__`, ... with
`exec`. cllint defines about 90 records on its lint path, and compiling their ~450 generated
functions was a third of `cllint check`'s start-up on a one-line kernel (29 ms of 108, issue 19).

The hook is the one name `dataclasses` calls, `exec`, shadowed in that module's namespace
(3.11 to 3.13 all call `exec(text, globals, namespace)` with the text of the generated code).
The cache maps that exact text to its code object, so a hit executes the code `compile` would
have produced, with the same file name, and a changed class simply misses: nothing to
invalidate. Code objects are stored with `marshal`, like `.pyc` files, under a name carrying
the interpreter's cache tag; a missing, unreadable or foreign file just means compiling.
"""

from __future__ import annotations

import atexit
import builtins
import marshal
import os
import sys
from pathlib import Path
from types import CodeType

_NAME = f"dataclass-methods.{sys.implementation.cache_tag}.marshal"
# Texts from classes that changed accumulate; past this many the file keeps only this run's.
_MAX_ENTRIES = 5000

_codes: dict[str, CodeType] = {}
_used: set[str] = set()
_missed = False
_installed = False


def cache_dirs() -> list[Path]:
    """Beside the package, as Python keeps .pyc files, then the user's cache (a read-only install)."""
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return [Path(__file__).resolve().parent / "__pycache__", Path(xdg) / "cllint"]


def _cached_exec(source, globals=None, locals=None, /):  # noqa: A002 - exec's own parameter names
    global _missed
    if type(source) is str:
        code = _codes.get(source)
        if code is None:
            code = _codes[source] = compile(source, "<string>", "exec")
            _missed = True
        _used.add(source)
        source = code
    return builtins.exec(source, globals, locals)


def _load() -> None:
    for d in cache_dirs():
        try:
            data = marshal.loads((d / _NAME).read_bytes())
        except (OSError, EOFError, ValueError, TypeError):
            continue
        if isinstance(data, dict):
            _codes.update((k, v) for k, v in data.items() if isinstance(k, str) and isinstance(v, CodeType))
            return


def _save() -> None:
    if not _missed:
        return
    keep = _codes if len(_codes) <= _MAX_ENTRIES else {k: _codes[k] for k in _used}
    blob = marshal.dumps(keep)
    for d in cache_dirs():
        tmp = d / f"{_NAME}.{os.getpid()}.tmp"
        try:
            d.mkdir(parents=True, exist_ok=True)
            tmp.write_bytes(blob)
            tmp.replace(d / _NAME)  # atomic: a concurrent reader sees the old file or the new one
            return
        except OSError:
            try:
                tmp.unlink(missing_ok=True)
            except OSError:
                pass


def install() -> None:
    """Route `dataclasses`' compiles through the cache; saved at exit when something was new.
    `CLLINT_NO_CLASS_CACHE=1` turns it off."""
    global _installed
    if _installed or os.environ.get("CLLINT_NO_CLASS_CACHE"):
        return
    import dataclasses

    _installed = True
    _load()
    dataclasses.exec = _cached_exec  # type: ignore[attr-defined]
    atexit.register(_save)
