"""Extensions a source's includers enable before they `#include` it (issue 29).

A source only ever `#include`d is compiled inside its includer's program, after every
`#pragma OPENCL EXTENSION name : enable` that the includer's text before the `#include` line
puts in force, in that text or in the headers it includes first, and after those its own
includer put in force before including it. A leaf that needs no name from its includers is
read alone (model.py), so those pragmas are handed to it as a prelude entry
(`includer_heads.pragma_entry`): IGC's built-in leaves use scalar `half` under
`IBiF_Header.cl`'s `cl_khr_fp16` pragma, two includes up.

A pragma counts when it is in no conditional, or only in conditionals that test its own
extension (`#ifdef cl_khr_fp16`, as libraries write it); a later `disable` cancels it.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from cllint.analysis.lazy_re import lazy

_TESTS = lazy(r"^(?:defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+))$")
_DEPTH = 4  # includers followed up from a source


def _scan(text: bytes, state: frozenset[str], on_include=None) -> frozenset[str]:  # noqa: ANN001
    """The extensions enabled at the end of `text` (with `state` enabled at its start), calling
    `on_include(spelled, state)` at each quoted `#include`, which answers the state after it."""
    if b"pragma" not in text and on_include is None:
        return state
    from cllint.analysis.preprocessor.directives import scan_directives

    enabled = set(state)
    stack: list[str | None] = []  # per open conditional: the extension it tests alone, "" for an
    # include guard (`#ifndef X` then `#define X`: taken on the text's first reading), or None
    lines = scan_directives(text)
    for i, d in enumerate(lines):
        word = d.keyword
        if word == "ifdef":
            stack.append(d.name)
        elif word == "ifndef" and d.name and i + 1 < len(lines) and lines[i + 1].keyword == "define" \
                and lines[i + 1].name == d.name:
            stack.append("")
        elif word in ("if", "ifndef"):
            t = _TESTS.match(d.args) if word == "if" else None
            stack.append((t.group(1) or t.group(2)) if t else None)
        elif word in ("elif", "else", "elifdef", "elifndef") and stack:
            stack[-1] = None
        elif word == "endif" and stack:
            stack.pop()
        elif d.pragma is not None and d.pragma.kind == "extension" and d.pragma.name:
            if d.pragma.behavior not in ("enable", "disable") or any(t != d.pragma.name and t != "" for t in stack):
                continue
            (enabled.add if d.pragma.behavior == "enable" else enabled.discard)(d.pragma.name)
        elif d.kind == "include" and on_include is not None and d.path and not d.angled:
            enabled = set(on_include(d.path, frozenset(enabled)))
    return frozenset(enabled)


def enabled_by_pragmas(text: bytes, state: frozenset[str] = frozenset()) -> frozenset[str]:
    """The extensions enabled at the end of `text` (with `state` enabled at its start)."""
    return _scan(text, state)


def includer_pragmas(included: Mapping[Path, tuple], sources: Mapping[Path, bytes],
                     paths: list[Path]) -> dict[Path, tuple[str, ...]]:
    """Per source of `paths` that another includes (`build_lists.included_programs`' answer),
    the extensions in force where its includer includes it, through includers of includers.
    The includer's text is read up to the `#include`; a workspace source it includes before is
    read whole, its own includes not followed."""
    from cllint.analysis.preprocessor.includer_heads import split_head

    at_includes: dict[tuple[Path, frozenset[str]], dict[str, frozenset[str]]] = {}

    def states(includer: Path, start: frozenset[str]) -> dict[str, frozenset[str]]:
        key = (includer, start)
        if key not in at_includes:
            found: dict[str, frozenset[str]] = {}

            def on_include(spelled: str, state: frozenset[str]) -> frozenset[str]:
                found.setdefault(spelled, state)
                header = sources.get(Path(os.path.normpath(includer.parent / spelled)))
                return state if header is None else enabled_by_pragmas(header, state)

            _scan(sources.get(includer, b""), start, on_include)
            at_includes[key] = found
        return at_includes[key]

    def at_include(path: Path, depth: int) -> frozenset[str]:
        got = included.get(path)
        parts = split_head(got[0][0]) if got is not None and got[0] else None
        if parts is None or depth > _DEPTH:
            return frozenset()
        includer = Path(parts[0])
        return states(includer, at_include(includer, depth + 1)).get(parts[1].strip(), frozenset())

    out: dict[Path, tuple[str, ...]] = {}
    for path in paths:
        found = at_include(path, 0)
        if found:
            out[path] = tuple(sorted(found))
    return out
