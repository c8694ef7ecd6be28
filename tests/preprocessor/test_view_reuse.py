"""A file's preprocessor view is reused, moved, for its next text (analysis/preprocessor/
reuse.py): after any sequence of edits, to the file, to the headers it includes or to the
options, the view must be indistinguishable from a build of the same inputs from scratch."""

from __future__ import annotations

from collections.abc import Callable

from hypothesis import given, settings, strategies as st

from cllint.analysis.database import Database
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.preprocessor import reuse
from cllint.analysis.preprocessor.view import Branch, PreprocessorView, build_view
from cllint.analysis.target import Target

MAIN = "/inc/main.cl"
CL12 = Target.preset("CL1.2")
CL30 = Target.preset("CL3.0-all")

HEADERS = {
    "a.h": b"""#pragma once
#ifndef A_H
#define A_H
#define HAS_A 1
#ifdef cl_khr_fp64
#define REAL double
#define HAS_FP64 1
#else
#define REAL float
#endif
#include "b.h"
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#endif
""",
    "b.h": b"""#if HAS_A
#define B_LEVEL 2
#else
#define B_LEVEL 1
#endif
#define SQ(x) ((x)*(x))
#include "missing.h"
#pragma OPENCL FP_CONTRACT OFF
#if
""",
    "c.h": b"""#if MAIN_MODE > 1
#define C_FAST 1
#elif defined(B_LEVEL)
#undef SQ
#define SQ(x) (x)
#endif
#include "a.h"
#include "boom.h"
""",
}

BASE = b"""// main
#define MAIN_MODE 2
#include "a.h"
#include "c.h"
#include <missing_angled.h>
kernel void k(global REAL *p) {
    p[0] = SQ(2);
}
#if HAS_FP64 && B_LEVEL > 1
#define USE_DOUBLE 1
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
void f64(void) { double d = 1.0; }
#elif defined(C_FAST)
void fast(void) { }
#else
void none(void) { }
#endif
#ifdef USE_DOUBLE
#undef MAIN_MODE
#endif
#if __OPENCL_C_VERSION__ >= 200 && SQ(1)
void twenty(void) { int x = 0; }
#endif
#include "c.h"
void tail(void) {
    int y = 1;
}
#pragma OPENCL FP_CONTRACT ON
"""
TEXT_PIECES = [b"x", b" ", b"\n", b"int j = 0;", b"", b"/*", b"*/", b"//", b"\\\n", b'"', b"'", b"#", b"}"]
DIRECTIVE_PIECES = [
    b"#define HAS_FP64 1\n", b"#undef B_LEVEL\n", b'#include "a.h"\n', b'#include "b.h"\n', b"#if 0\n",
    b"#endif\n", b"#else\n", b"#elif MAIN_MODE\n", b"#pragma OPENCL EXTENSION all : disable\n",
    b"#pragma once\n", b"\n#define MAIN_MODE 0\n", b'#include "main.cl"\n', b"#ifdef C_FAST\n",
    b"#if B_LEVEL == 2\n", b'#include "d.h"\n', b"#define REAL half\n",
]  # fmt: skip
HEADER_PIECES = [b"x", b"\n", b"#define HAS_A 0\n", b"#undef HAS_A\n", b"#endif\n", b"#if 1\n", b"/*", b"",
                 b"#define B_LEVEL 3\n", b'#include "c.h"\n']


class Files:
    """Headers by name, and the main text (which a header may include)."""

    def __init__(self, main: bytes = BASE) -> None:
        self.headers = dict(HEADERS)
        self.main = main

    def resolve(self, name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        if name == "boom.h":
            raise OSError("a resolver failure")
        if name == "main.cl":
            return MAIN, self.main
        data = self.headers.get(name)
        return None if data is None else (f"/inc/{name}", data)


def from_scratch(text: bytes, resolver: Callable | None, target: Target, defines: dict[str, str]) -> PreprocessorView:
    """A build that reuses nothing: no last view, no last directive scan (a database of its own,
    where the last builds and scans live since issue 33), no header reading replayed."""
    with Database().active():
        return build_view(MAIN, text, target=target, defines=defines, include_resolver=resolver,
                          memo_headers=False)


def describe(v: PreprocessorView, length: int) -> dict:
    """Everything a view exposes, branches by their structure (identity pattern included)."""
    ids: dict[int, int] = {}
    table: list[tuple] = []

    def b(br: Branch) -> int:
        if id(br) not in ids:
            parent = None if br.parent is None else b(br.parent)
            ids[id(br)] = len(ids)
            table.append((ids[id(br)], parent, br.own, br.active, br.file, br.start, br.depth, br.combined))
        return ids[id(br)]

    offsets = sorted({0, length, *range(0, length + 1, 7), *(d.start for d in v.directives),
                      *(d.end for d in v.directives), *(d.end + 1 for d in v.directives)})
    names = sorted(v._macro_events)
    return {
        "root": b(v.root),
        "regions": [(s, e, b(br)) for s, e, br in v.regions],
        "starts": v._starts,
        "events": {n: [(e.offset, e.name, e.macro, b(e.branch)) for e in evs]
                   for n, evs in sorted(v._macro_events.items())},
        "event_offsets": dict(sorted(v._macro_offsets.items())),
        "pragmas": [(p.offset, p.span, p.name, p.behavior, b(p.branch)) for p in v.pragmas],
        "pragma_offsets": v._pragma_offsets,
        "fp_contract": [(w, n, b(br)) for w, n, br in v.fp_contract],
        "includes": v.includes,
        "diagnostics": v.diagnostics,
        "included_diagnostics": v.included_diagnostics,
        "directives": v.directives,
        "env": v.env.macros,
        "file": v.file_id,
        "resolver": v.include_resolver,
        "branches": table,
        "queries": [
            (o, v.active_at(o), v.macro_state_at(o), v.macro_names_at(o), v.guard_min_version(o),
             v.guard_implies(o, "cl_khr_fp64"), v.extension_state_at(o, "cl_khr_fp64"),
             [v.macro_at(n, o) for n in names], v.expand_type_macro("REAL", o))
            for o in offsets
        ],
        "inactive": v.inactive_ranges(),
    }


def edit(data: st.DataObject, text: bytes, pieces: list[bytes]) -> bytes:
    start = data.draw(st.integers(0, len(text)))
    end = data.draw(st.integers(start, min(len(text), start + data.draw(st.sampled_from([0, 0, 1, 12, 40])))))
    return text[:start] + data.draw(st.sampled_from(pieces)) + text[end:]


def keystrokes(data: st.DataObject, text: bytes) -> list[bytes]:
    """Characters typed one by one at one place, each a new text."""
    at = data.draw(st.integers(0, len(text)))
    typed = data.draw(st.sampled_from([b"int v = 1;", b"x", b"  ", b"#define Z 1\n", b"/* c */"]))
    return [text[:at] + typed[: i + 1] + text[at:] for i in range(len(typed))]


# Texts whose first directive opens the file, or whose last one ends it (no newline): the
# offsets 0 and len(text) then also come from directives.
STARTS = [BASE, BASE[BASE.index(b"#"):], BASE.rstrip(b"\n"), BASE[BASE.index(b"#"):].rstrip(b"\n")]


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_a_reused_view_equals_a_build_from_scratch(data) -> None:
    files = Files(data.draw(st.sampled_from(STARTS)))
    target, defines = CL12, {}
    resolver: Callable | None = files.resolve
    reuse.forget(MAIN)
    build_view(MAIN, files.main, target=target, defines=defines, include_resolver=resolver)
    for _ in range(data.draw(st.integers(1, 8))):
        step = data.draw(st.sampled_from(["text", "text", "text", "type", "directive", "header", "options",
                                          "resolver", "ends"]))
        texts = [files.main]
        if step == "text":
            texts = [edit(data, files.main, TEXT_PIECES)]
        elif step == "type":
            texts = keystrokes(data, files.main)
        elif step == "directive":
            texts = [edit(data, files.main, DIRECTIVE_PIECES)]
        elif step == "header":
            name = data.draw(st.sampled_from(["a.h", "b.h", "c.h", "d.h"]))
            if name in files.headers and data.draw(st.booleans()):
                files.headers[name] = edit(data, files.headers[name], HEADER_PIECES)
            elif name in files.headers:
                del files.headers[name]
            else:
                files.headers[name] = b"#define D_H 1\n"
        elif step == "ends":  # at either end of the text, next to a directive there
            at = data.draw(st.sampled_from([0, len(files.main)]))
            piece = data.draw(st.sampled_from([b"\n", b" ", b"\nint x;", b"x", b"\n\n"]))
            texts = [files.main[:at] + piece + files.main[at:]]
        elif step == "resolver":
            resolver = None if resolver is not None else files.resolve
        else:
            target = data.draw(st.sampled_from([CL12, CL30]))
            defines = data.draw(st.sampled_from([{}, {"MAIN_MODE": "3"}, {"cl_khr_fp64": "1", "HAS_A": "0"}]))
        for text in texts:
            files.main = text
            got = build_view(MAIN, text, target=target, defines=defines, include_resolver=resolver)
            want = from_scratch(text, resolver, target, defines)
            assert describe(got, len(text)) == describe(want, len(text))
    reuse.forget(MAIN)


def test_a_keystroke_in_a_body_reuses_the_view() -> None:
    """The common case is the reused one; an edited directive or header is not."""
    files = Files()
    reuse.forget(MAIN)
    first = build_view(MAIN, BASE, target=CL12, include_resolver=files.resolve)
    at = BASE.index(b"int y = 1;")
    typed = BASE[:at] + b"float z = 2.0f; " + BASE[at:]
    second = build_view(MAIN, typed, target=CL12, include_resolver=files.resolve)
    assert second.root is first.root and second is not first
    assert describe(second, len(typed)) == describe(from_scratch(typed, files.resolve, CL12, {}), len(typed))
    early = BASE.index(b"p[0]")  # before conditionals and later includes: they all move
    moved = typed[:early] + b"\n\n" + typed[early:]
    third = build_view(MAIN, moved, target=CL12, include_resolver=files.resolve)
    assert third.root is first.root
    assert describe(third, len(moved)) == describe(from_scratch(moved, files.resolve, CL12, {}), len(moved))
    files.headers["b.h"] = files.headers["b.h"].replace(b"B_LEVEL 2", b"B_LEVEL 0")
    fourth = build_view(MAIN, moved, target=CL12, include_resolver=files.resolve)
    assert fourth.root is not first.root
    assert describe(fourth, len(moved)) == describe(from_scratch(moved, files.resolve, CL12, {}), len(moved))
    directive = moved.replace(b"#define MAIN_MODE 2", b"#define MAIN_MODE 1")
    fifth = build_view(MAIN, directive, target=CL12, include_resolver=files.resolve)
    assert fifth.root is not fourth.root
    reuse.forget(MAIN)


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_the_host_view_equals_a_build_from_scratch(data) -> None:
    """Through `Snapshot.preprocessor`, as the language server reads it, keystroke by keystroke."""
    files = Files()
    options = LintOptions(target=CL12)
    host = Host(options, include_resolver=files.resolve)
    reuse.forget(MAIN)
    host.set_file(MAIN, files.main)
    host.snapshot().preprocessor(MAIN)
    for _ in range(data.draw(st.integers(1, 5))):
        start = data.draw(st.integers(0, len(files.main)))
        end = data.draw(st.integers(start, min(len(files.main), start + 3)))
        piece = data.draw(st.sampled_from(TEXT_PIECES + DIRECTIVE_PIECES[:4]))
        host.apply_change(Change(edits={MAIN: [TextEdit(start, end, piece)]}))
        files.main = files.main[:start] + piece + files.main[end:]
        got = host.snapshot().preprocessor(MAIN)
        want = from_scratch(files.main, files.resolve, options.target, dict(options.defines))
        assert describe(got, len(files.main)) == describe(want, len(files.main))
    reuse.forget(MAIN)


def test_moving_deeply_nested_branches_does_not_recurse() -> None:
    """Hostile nesting (3000 arms), all moved by an edit above it."""
    text = b"int a;\n" + b"#if 1\n" * 3000 + b"#define X 1\nx;\n" + b"#endif\n" * 3000
    reuse.forget(MAIN)
    first = build_view(MAIN, text, target=CL12)
    edited = b"int ab;\n" + text[len(b"int a;\n"):]
    v = build_view(MAIN, edited, target=CL12)
    assert v.root is first.root
    want = from_scratch(edited, None, CL12, {})
    x = edited.index(b"x;")
    assert v.active_at(x) is True and len(v.conditions_at(x)) == 3000
    def shape(view: PreprocessorView) -> list[tuple[int, int, int, int]]:
        return [(s, e, br.start, br.depth) for s, e, br in view.regions]

    assert shape(v) == shape(want)
    assert v.macro_at("X", x) == want.macro_at("X", x)
    reuse.forget(MAIN)


def test_the_reuse_knows_every_field_of_a_view() -> None:
    """`reuse._Mover` rebuilds a view field by field: a new field must be taught to it (and to
    `describe` above), else a reused view would silently lack or misplace it."""
    reuse.forget(MAIN)
    files = Files()
    first = build_view(MAIN, BASE, target=CL12, include_resolver=files.resolve)
    second = build_view(MAIN, b"\n" + BASE, target=CL12, include_resolver=files.resolve)
    assert second.root is first.root
    known = {"file_id", "root", "env", "regions", "_starts", "_macro_events", "_macro_offsets", "pragmas",
             "_pragma_offsets", "includes", "diagnostics", "included_diagnostics", "directives", "fp_contract",
             "_macro_states", "include_resolver", "_state_log", "_definitions", "replayed_includes"}
    assert set(vars(first)) == known and set(vars(second)) == known
    reuse.forget(MAIN)
