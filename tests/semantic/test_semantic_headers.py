"""The semantic family in files whose `#include`s cllint can read: names, macros and functions
the headers declare count as declared, and the file is checked as one without includes. Labelled
cases (fixtures/headers/), clang-19 with `-I` as the oracle, linted through the CLI's engine
(`cllint check -I`); the held-out split is scored apart (bench/semantic_recall.py)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from header_cases import CLANG, SPLITS, HeaderCase, clang, load  # noqa: E402

from cllint.analysis.lint import LintOptions  # noqa: E402
from cllint.analysis.rules.semantic import RULES  # noqa: E402
from cllint.cli.engine import lint_source  # noqa: E402

CODES = tuple(r.code for r in RULES)
CASES = [c for split in SPLITS for c in load(split)]
IDS = [f"{c.split}-{c.name}" for c in CASES]


def semantic(case: HeaderCase, path: Path) -> list[tuple[int, str, str]]:
    """(line, code, message) of the family's reports on `path`, as `cllint check -I` lints it."""
    data = path.read_bytes()
    # a case of another family (CL101: a header's pointer typedef) selects that code too
    codes = CODES if not case.expect.startswith("CL") or case.expect in CODES else (*CODES, case.expect)
    opts = LintOptions(select=codes, include_paths=tuple(str(p) for p in case.include))
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code, d.message) for d in lint_source(str(path), data, opts)]


def test_cases_cover_the_brief() -> None:
    tune, held = load("tune"), load("heldout")
    assert len(tune) >= 12 and len(held) >= 6
    assert {c.expect for c in tune} >= {"CL010", "CL011", "CL013", "clean", "unread"}


@pytest.mark.skipif(CLANG is None, reason="clang-19 is not installed")
@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_clang_confirms(case: HeaderCase) -> None:
    if case.expect == "unread":
        assert any(kind == "fatal error" and "not found" in msg for _, kind, msg in clang(case, case.kernel, anywhere=True))
        return
    if case.expect == "clean":
        assert [d for d in clang(case, case.kernel) if d[1] != "warning"] == []
        return
    assert any(line == case.line and kind == "error" for line, kind, _ in clang(case, case.kernel))
    assert [d for d in clang(case, case.fixed) if d[1] != "warning"] == []


@pytest.mark.parametrize("case", CASES, ids=IDS)
def test_reported_on_the_line(case: HeaderCase) -> None:
    found = semantic(case, case.kernel)
    if case.expect in ("clean", "unread"):
        assert found == []
    else:
        assert (case.line, case.expect) in {(line, code) for line, code, _ in found}, found
        assert semantic(case, case.fixed) == []


def test_cli_check_with_include_folder(tmp_path: Path) -> None:
    """`cllint check -I dir`: the header found through -I declares the names, so the typo
    beside them is reported; without -I the include is unread and the names stay silent."""
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "ops.h").write_text("#define WG 64\nfloat twice(float x) { return 2.0f * x; }\n")
    kernel = tmp_path / "k.cl"
    kernel.write_text("#include <ops.h>\nkernel void k(global float *a) {\n"
                      "    int gid = get_global_id(0);\n    a[gdi] = twice(a[gid]) * WG;\n}\n")

    def run(*extra: str) -> list[tuple[int, str]]:
        out = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json",
                              "--select", "CL0", *extra, str(kernel)], capture_output=True, text=True, timeout=120)
        return [(d["line"], d["code"]) for d in json.loads(out.stdout)]

    assert run("-I", str(tmp_path / "inc")) == [(4, "CL010")]
    assert run() == [(1, "CL002")]  # cannot find include file: the names are left alone


def test_header_change_reaches_bodies_not_edited() -> None:
    """In the editor's incremental lint, an edit of a header (another buffer) changes the
    findings of the including file's bodies that no edit touched."""
    from cllint.analysis.db import Change, Host, TextEdit

    headers = {"h.h": b"float helper(float x);\n"}
    host = Host(LintOptions(select=CODES),
                include_resolver=lambda name, angled, including: (name, headers[name]) if name in headers else None)
    text = (b'#include "h.h"\nkernel void a(global float *o) { o[0] = helper(o[1]); }\n'
            b"kernel void b(global float *o) { o[0] = 1.0f; }\n")
    host.set_file("k.cl", text)
    assert host.snapshot().diagnostics("k.cl") == []
    headers["h.h"] = b"float helper2(float x);\n"
    at = text.rindex(b"1.0f")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at + 4, b"2.0f")]}))
    diags = host.snapshot().diagnostics("k.cl")
    assert [(d.code, d.message) for d in diags] == [
        ("CL011", "call to undeclared function 'helper'; did you mean 'helper2'?")]


def _lint_with(headers: dict[str, str], source: str) -> list[tuple[int, str]]:
    from cllint.analysis.lint import lint_tree
    from cllint.grammar import parse

    def resolve(name: str, angled: bool, including: str) -> tuple[str, bytes] | None:
        return (name, headers[name].encode()) if name in headers else None

    data = source.encode()
    diags = lint_tree("k.cl", data, parse(data), LintOptions(select=CODES), include_resolver=resolve)
    return [(data.count(b"\n", 0, d.span.start) + 1, d.code) for d in diags]


QUIET_WITH_HEADERS = {
    # `##` in a header's macro makes names no header spells out (john's defkeccak(256))
    "pasted-name": ({"h.h": "#define DEF(n) float fn_##n(float x) { return x; }\nDEF(one)\n"},
                    '#include "h.h"\nkernel void k(global float *a) { a[0] = fn_one(a[0]); }\n'),
    "two-words-pasted": ({"h.h": "#define CAT(a, b) a##b\nfloat CAT(lerp, 4)(float x) { return x; }\n"},
                         '#include "h.h"\nkernel void k(global float *a) { a[0] = lerp4(a[0]); }\n'),
    # a lone word as a parameter may be a host macro standing for several
    "macro-parameter-list": ({"h.h": "float f(KERNEL_PARAMS);\n"},
                             '#include "h.h"\nkernel void k(global float *a) { a[0] = f(a, 1); }\n'),
    # declared differently in two arms: no count is the header's to tell
    "arity-in-arms": ({"h.h": "#ifdef WIDE\nfloat g(float a, float b);\n#else\nfloat g(float a);\n#endif\n"},
                      '#include "h.h"\nkernel void k(global float *a) { a[0] = g(a[0], a[1]); }\n'),
    # a header function that is also a macro somewhere is the macro's
    "function-and-macro": ({"h.h": "float h(float a);\n", "m.h": "#define h(a, b) ((a) + (b))\n"},
                           '#include "h.h"\n#include "m.h"\nkernel void k(global float *a) { a[0] = h(a[0], a[1]); }\n'),
    # one unresolved include anywhere (here in a nested header) keeps every name quiet
    "nested-unresolved": ({"h.h": '#include "gen.h"\n'},
                          '#include "h.h"\nkernel void k(global float *a) { a[0] = unknown_thing; }\n'),
    # types: a typedef declared otherwise in two arms is neither arm's
    "typedef-in-arms": ({"h.h": "#ifdef W\ntypedef float4 v_t;\n#else\ntypedef float2 v_t;\n#endif\n"},
                        '#include "h.h"\nkernel void k(global float4 *a) { v_t v = (float4)(1.0f); a[0] = v; }\n'),
    # a function-like macro of the function's name decides what the call gives
    "function-type-and-macro": ({"h.h": "float2 f(float4 a);\n", "m.h": "#define f(a) (a)\n"},
                                '#include "h.h"\n#include "m.h"\n'
                                'kernel void k(global float4 *a) { float4 c = f(a[0]); a[1] = c; }\n'),
    # a header included inside a body declares nothing at file scope
    "include-in-body": ({"h.h": "typedef float2 pair_t;\n"},
                        'kernel void k(global float4 *a) {\n#include "h.h"\n}\n'
                        'void g(global float4 *a) { pair_t p = (float4)(1.0f); a[0] = p; }\n'),
    # a typedef a header declares twice (two headers) is left unknown
    "typedef-twice": ({"a.h": "typedef float4 v_t;\n", "b.h": "typedef float2 v_t;\n"},
                      '#include "a.h"\n#include "b.h"\nkernel void k(global float4 *a) { v_t v = (float4)(1.0f); }\n'),
    "computed-include": ({"h.h": "#define X 1\n"},
                         '#define HDR "h.h"\n#include HDR\nkernel void k(global float *a) { a[0] = unknown_thing; }\n'),
}


@pytest.mark.parametrize("name", sorted(QUIET_WITH_HEADERS))
def test_quiet_with_headers(name: str) -> None:
    headers, source = QUIET_WITH_HEADERS[name]
    assert _lint_with(headers, source) == []


def test_reported_with_read_headers() -> None:
    headers = {"h.h": "float scale(float x, float s);\n#define N 4\n"}
    assert _lint_with(headers, '#include "h.h"\nkernel void k(global float *a) {\n  a[0] = scale(a[0]) + N + nn;\n}\n') \
        == [(3, "CL013"), (3, "CL010")]


def test_header_types_reported() -> None:
    """Typedefs, struct members and prototypes of a read header are judged as the file's own."""
    headers = {"h.h": '#ifndef H\n#define H\n#include "t.h"\ntypedef struct { float a; vec4 v; } P;\n'
                      'vec2 half_of(vec4 v);\n#endif\n',
               "t.h": "typedef float4 vec4;\ntypedef float2 vec2;\n"}
    source = ('#include "h.h"\nkernel void k(global float4 *o, P p) {\n  vec4 a = half_of(p.v);\n'
              '  o[0] = p.b;\n  o[1] = p.v.xyzw + (vec4)(1.0f, 2.0f);\n}\n')
    assert _lint_with(headers, source) == [(3, "CL022"), (4, "CL017"), (5, "CL015")]


def test_header_type_change_reaches_bodies_not_edited() -> None:
    """A struct member added to a header in another buffer silences a body no edit touched."""
    from cllint.analysis.db import Change, Host, TextEdit

    headers = {"h.h": b"typedef struct { float a; } P;\n"}
    host = Host(LintOptions(select=CODES),
                include_resolver=lambda name, angled, including: (name, headers[name]) if name in headers else None)
    text = (b'#include "h.h"\nkernel void a(global float *o, P p) { o[0] = p.b; }\n'
            b"kernel void b(global float *o) { o[0] = 1.0f; }\n")
    host.set_file("k.cl", text)
    assert [d.code for d in host.snapshot().diagnostics("k.cl")] == ["CL017"]
    headers["h.h"] = b"typedef struct { float a, b; } P;\n"
    at = text.rindex(b"1.0f")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at + 4, b"2.0f")]}))
    assert host.snapshot().diagnostics("k.cl") == []


def test_pointer_typedef_behind_a_host_macro_stays_unknown() -> None:
    """`typedef REAL *rptr;` with REAL from `-D` (maybe `global float`): where it points is
    the macro's, so a global pointer stored in one is left alone (CL101 included)."""
    from cllint.analysis.lint import lint_tree
    from cllint.grammar import parse

    headers = {"h.h": b"typedef REAL *rptr;\n"}
    data = b'#include "h.h"\nkernel void k(global float *g) { rptr p = g; p[0] = 1.0f; }\n'
    from cllint.analysis.target import Target

    diags = lint_tree("k.cl", data, parse(data), LintOptions(target=Target.preset("CL1.2"), mode="target"),
                      include_resolver=lambda name, angled, including: (name, headers[name]) if name in headers else None)
    assert diags == []
