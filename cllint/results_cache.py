"""A file's diagnostics kept on disk by content, as `.pyc` files are: `cllint check`'s results,
and the first diagnostics of a document the editor opens (issue 32: analysing darktable's
basic.cl takes ~250 ms however warm the process; opened again unchanged, it takes a read).

Entries live in the user's cache (`$XDG_CACHE_HOME/cllint/<kind>`, beside the workspace
index). The key is the installed code, the options and the file's name and text. What the
file's includes read is not in the key but in the entry (path -> stamp, absent files too),
checked on every hit: a header edited, created or deleted since is a miss. A result that read
a file changed in the last RACY_SECONDS (its stamp may not tell a second quick change), or one
a time budget cut short (CL091), is not kept.
"""

from __future__ import annotations

import os
import time
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from cllint import __version__
from cllint.analysis.digest import blake2b
from cllint.includes import Stamp, stamp_of

if TYPE_CHECKING:
    from cllint.analysis.diagnostics import Diagnostic
    from cllint.analysis.lint import LintOptions

RACY_SECONDS = 2.0


def cache_dir(kind: str) -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "cllint" / kind


def options_key(options: LintOptions) -> str:
    """A stable text for the options: `repr` is not, since the target's frozensets
    iterate in a per-process order (string hashing is randomised)."""
    t = options.target
    return repr((t.name, str(t.version), sorted(t.features), sorted(t.extensions), options.select,
                 options.ignore, options.extend_select, options.defines, options.include_paths,
                 options.mode, options.std, options.preview, options.budget, options.prelude, options.options_known,
                 options.program_note, options.host_macros, options.host_features, options.one_group_kernels,
                 options.host_headers, options.launches, options.launch_bounds))


@cache
def code_stamp() -> bytes:
    """The analysis code and the compiled parser as installed (names, sizes, mtimes): a
    reinstall from a newer checkout under the same version must not reuse old results."""
    import cllint.analysis
    import cllint.grammar

    h = blake2b(digest_size=32)
    for package in (cllint.analysis, cllint.grammar):
        root = Path(package.__file__).parent
        for p in sorted(root.rglob("*")):
            if p.suffix in (".py", ".so", ".json", ".scm") and "__pycache__" not in p.parts:
                try:
                    st = p.stat()
                except OSError:
                    continue
                h.update(f"{p.relative_to(root)}:{st.st_size}:{st.st_mtime_ns}".encode())
    return h.digest()


def entry_key(file: str, source: bytes, options: LintOptions) -> str:
    h = blake2b(digest_size=32)
    h.update(__version__.encode())
    h.update(code_stamp())
    h.update(options_key(options).encode())
    h.update(file.encode())
    h.update(source)
    return h.hexdigest()


def load(folder: Path, key: str) -> tuple[list[Diagnostic], dict[str, Stamp]] | None:
    """The entry's diagnostics and probes if every probe still stamps the same."""
    import pickle  # only with a cache: ~1 ms of start-up otherwise

    try:
        diagnostics, probes = pickle.loads((folder / key).read_bytes())
    except (OSError, pickle.PickleError, EOFError, AttributeError, ValueError, TypeError, ImportError):
        return None
    if any(stamp_of(Path(p)) != s for p, s in probes.items()):
        return None
    return diagnostics, probes


def store(folder: Path, key: str, diagnostics: list[Diagnostic], probes: Mapping[str, Stamp]) -> None:
    now = time.time_ns()
    if any(s is not None and now - s[0] < RACY_SECONDS * 1e9 for s in probes.values()):
        return
    if any(d.code == "CL091" for d in diagnostics):  # a budget's result depends on the load
        return
    import pickle

    try:
        folder.mkdir(parents=True, exist_ok=True)
        entry = folder / key
        tmp = entry.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps((diagnostics, dict(probes))))
        tmp.replace(entry)  # atomic: a concurrent reader sees the old entry or the new one
    except OSError:
        pass  # a read-only cache costs speed, never results
