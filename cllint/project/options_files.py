"""Build options written in files beside the sources (issue 29, item 2a: the build's flags for
kernels where it names them).

Two conventions, the source's own file first:

- an options file named as the source plus `.opt`, `.opts`, `.options` or `.flags`
  (VariOCL keeps OpenCV's kernels as `X.cl` beside `X.cl.opt`, `-D DOUBLE_SUPPORT
  -D OP_BINARY=&`): the words of its text, as a shell splits them;
- clangd's `compile_flags.txt`, one flag a line, for every source of its folder and the
  folders below it (the nearest file wins), as clangd reads it for `.cl` files.

A file is read as options only when every word is one (`-D`, `-I`, `-include`, `-cl-std=`,
`-x`...) or the value of the one before it: a note in prose beside a kernel is not a build.
Relative paths are the options file's folder's, as the compiler run there would see them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .cmake_options import BuildOptions

OWN_SUFFIXES = (".opt", ".opts", ".options", ".flags")
FLAGS_FILE = "compile_flags.txt"
_MAX_BYTES = 16 * 1024  # an options file is a line or two; a larger one is something else
_TAKES_VALUE = frozenset({"-D", "-U", "-I", "-include", "--include", "-x", "-isystem", "-iquote", "-target"})


def file_build_options(sources: Iterable[Path]) -> dict[Path, BuildOptions]:
    """Per source, the options its own options file or its nearest `compile_flags.txt` gives."""
    listing: dict[Path, frozenset[str]] = {}
    flags: dict[Path, tuple[Path, list[str]] | None] = {}
    out: dict[Path, BuildOptions] = {}
    for source in sources:
        found = _own(source, _names(source.parent, listing)) or _nearest(source.parent, listing, flags)
        if found is not None:
            from .cmake_options import _options  # (only where a file gives options)

            at, words = found
            out[source] = _options(words, at, at.parent, set())
    return out


def _names(folder: Path, listing: dict[Path, frozenset[str]]) -> frozenset[str]:
    names = listing.get(folder)
    if names is None:
        try:
            names = frozenset(os.listdir(folder))
        except OSError:
            names = frozenset()
        listing[folder] = names
    return names


def _own(source: Path, names: frozenset[str]) -> tuple[Path, list[str]] | None:
    for suffix in OWN_SUFFIXES:
        if source.name + suffix in names:
            at = source.with_name(source.name + suffix)
            text = _small_text(at)
            if text is None:
                continue
            import shlex  # (only where a source has an options file: no cost to other checks)

            try:
                words = shlex.split(text, comments=True)
            except ValueError:  # an unclosed quote: not options
                continue
            if words and _all_options(words):
                return at, words
    return None


def _nearest(folder: Path, listing: dict[Path, frozenset[str]],
             flags: dict[Path, tuple[Path, list[str]] | None]) -> tuple[Path, list[str]] | None:
    """The nearest `compile_flags.txt` at or above `folder` that holds options (clangd's rule)."""
    seen: list[Path] = []
    found: tuple[Path, list[str]] | None = None
    for d in (folder, *folder.parents):
        if d in flags:
            found = flags[d]
            break
        seen.append(d)
        if FLAGS_FILE in _names(d, listing):
            at = d / FLAGS_FILE
            text = _small_text(at)
            words = [line.strip() for line in text.splitlines()] if text is not None else []
            words = [w for w in words if w and not w.startswith("#")]
            if words and _all_options(words):
                found = (at, words)
                break
    for d in seen:
        flags[d] = found
    return found


def _small_text(path: Path) -> str | None:
    try:
        if path.stat().st_size > _MAX_BYTES:
            return None
        return path.read_text(errors="replace")
    except OSError:
        return None


def _all_options(words: list[str]) -> bool:
    value_next = False
    for w in words:
        if value_next:
            value_next = False
            continue
        if not w.startswith("-"):
            return False
        value_next = w in _TAKES_VALUE
    return True
