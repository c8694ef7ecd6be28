"""An includer's text before its `#include` of a fragment, as a source of the fragment's program
(issue 29).

A fragment (a source only ever `#include`d) is compiled inside its includer: what the includer
defines before the `#include` line (macros, types, functions, and what it includes first) is
there when the fragment is read. Its program's prelude names that text as a *head* entry, the
includer's path and the include's spelled name joined by a NUL (no path holds one); every
reader of a prelude (the include resolver's callers, the compiler layer) cuts the includer's
text, as the editor or the disk has it now, at the first directive including that name.
Conditionals the cut leaves open are closed, so that the fragment after it is read whole.

A *pragma* entry (two NULs, then the extension names) stands for the `#pragma OPENCL EXTENSION
... : enable` lines a source's includers put in force before including it
(cllint/project/includer_pragmas.py); it reads as those pragmas, each under `#ifdef` of its name.
"""

from __future__ import annotations

from collections.abc import Callable

_MARK = "\x00"
_PRAGMAS = "\x00\x00pragmas:"  # no path holds a NUL, and no head entry starts with one
_OPENS = frozenset({"if", "ifdef", "ifndef"})


def head_entry(includer: str, spelled: str) -> str:
    """The prelude entry for `includer`'s text before its `#include "spelled"`."""
    return f"{includer}{_MARK}{spelled}"


def pragma_entry(extensions: tuple[str, ...]) -> str:
    """The prelude entry for the extensions a fragment's includers enable before including it
    (cllint/project/includer_pragmas.py): read as their pragmas, each under `#ifdef` of its
    extension, as the includers write them where the extension may be missing."""
    return _PRAGMAS + ",".join(extensions)


def pragma_text(entry: str) -> bytes:
    out = []
    for ext in entry[len(_PRAGMAS):].split(","):
        pragma = f"#pragma OPENCL EXTENSION {ext} : enable\n"
        out.append(pragma if ext == "all" else f"#ifdef {ext}\n{pragma}#endif\n")
    return "".join(out).encode()


PRAGMA_SOURCE = "<includers' pragmas>"  # the file id of a pragma entry's text


def split_head(entry: str) -> tuple[str, str] | None:
    """(includer path, spelled include name) of a head entry; None for a plain path or a
    pragma entry."""
    if _MARK not in entry or entry.startswith(_PRAGMAS):
        return None
    path, _, spelled = entry.partition(_MARK)
    return path, spelled


def cut_head(text: bytes, spelled: str) -> bytes:
    """`text` up to the line of its first `#include` naming `spelled`, with an `#endif` for each
    conditional still open there; empty when no such line is left (the includer was edited).
    Kept per text in the database's "preprocessor.includer_heads": a view reused on a keystroke
    in the file asks the resolver again."""
    from ..database import current

    memo = current().table("preprocessor.includer_heads", _HEADS_MAX)
    key = (text, spelled)
    got = memo.get(key)
    return got if got is not None else memo.put(key, _cut(text, spelled))


_HEADS_MAX = 32


def _cut(text: bytes, spelled: str) -> bytes:
    from .directives import scan_directives

    depth = 0
    for d in scan_directives(text):
        if d.kind == "include" and d.path == spelled:
            return text[:d.start] + (b"\n" if d.start and text[d.start - 1:d.start] != b"\n" else b"") \
                + b"#endif\n" * depth
        if d.keyword in _OPENS:
            depth += 1
        elif d.keyword == "endif" and depth:
            depth -= 1
    return b""


def read_head(entry: str, read: Callable[[str], tuple[str, bytes] | None]) -> tuple[str, bytes] | None:
    """A head entry read through `read(path)` (a resolver's answer: file id, bytes), cut; None
    for a plain path or an includer that cannot be read. A pragma entry reads as its pragmas."""
    if entry.startswith(_PRAGMAS):
        return PRAGMA_SOURCE, pragma_text(entry)
    parts = split_head(entry)
    if parts is None:
        return None
    found = read(parts[0])
    if found is None:
        return None
    return found[0], cut_head(found[1], parts[1])
