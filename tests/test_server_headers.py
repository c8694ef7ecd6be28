"""Included files as the server reads them: cached by stat, never stale."""

from __future__ import annotations

import os
import time
from pathlib import Path

from cllint.includes import MAX_INCLUDE_BYTES
from cllint.server.lsp import _HeaderCache


def _age(path: Path, seconds: float = 60) -> None:
    past = time.time_ns() - int(seconds * 1e9)
    os.utime(path, ns=(past, past))


def test_settled_file_is_read_once(tmp_path: Path) -> None:
    h = tmp_path / "a.h"
    h.write_bytes(b"#define A 1\n")
    _age(h)
    cache = _HeaderCache()
    first = cache.read(h)
    assert first == b"#define A 1\n"
    assert cache.read(h) is first  # from the cache, not read again


def test_changed_file_is_read_again(tmp_path: Path) -> None:
    h = tmp_path / "a.h"
    h.write_bytes(b"#define A 1\n")
    _age(h, 60)
    cache = _HeaderCache()
    assert cache.read(h) == b"#define A 1\n"
    h.write_bytes(b"#define A 2\n")  # same size, new time
    _age(h, 30)
    assert cache.read(h) == b"#define A 2\n"


def test_recently_written_file_is_never_trusted(tmp_path: Path) -> None:
    # Two writes of the same size within one tick of the file clock look alike to stat.
    h = tmp_path / "a.h"
    h.write_bytes(b"#define A 1\n")
    cache = _HeaderCache()
    assert cache.read(h) == b"#define A 1\n"
    st = h.stat()
    h.write_bytes(b"#define A 2\n")
    os.utime(h, ns=(st.st_atime_ns, st.st_mtime_ns))  # the same time as before
    assert cache.read(h) == b"#define A 2\n"


def test_missing_folder_and_oversized_files_are_not_headers(tmp_path: Path) -> None:
    cache = _HeaderCache()
    assert cache.read(tmp_path / "missing.h") is None
    assert cache.read(tmp_path) is None
    big = tmp_path / "big.h"
    big.write_bytes(b"x" * (MAX_INCLUDE_BYTES + 1))
    assert cache.read(big) is None
