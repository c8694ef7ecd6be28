"""Preprocessor view: directive scanning, conditions, macros, includes, pragmas, robustness."""

from __future__ import annotations

import time

import pytest

from cllint.analysis.diagnostics import Severity
from cllint.analysis.preprocessor import Condition, Env, build_view, scan_directives
from cllint.analysis.preprocessor.expr import ExprError, parse_tokens, tokenize
from cllint.analysis.target import Target

CL12 = Target.preset("CL1.2")
CL20 = Target.preset("CL2.0")
CL30 = Target.preset("CL3.0")
CL30_ALL = Target.preset("CL3.0-all")
FP64 = {"cl_khr_fp64", "__opencl_c_fp64"}


def view(src: str | bytes, target: Target = CL12, **kw):
    text = src.encode() if isinstance(src, str) else src
    return text, build_view("main.cl", text, target=target, **kw)


def at(text: bytes, marker: str) -> int:
    pos = text.find(marker.encode())
    assert pos >= 0, marker
    return pos


def cond(expr: str) -> Condition:
    return Condition(parse_tokens(_defined(tokenize(expr))))


def _defined(tokens):
    from cllint.analysis.preprocessor.expr import _expand_defined

    return _expand_defined(tokens)


# -- scanner ------------------------------------------------------------------------------


def test_scanner_kinds_spans_and_fields() -> None:
    text = (
        b'  #  define  F(a, b)  a  +  b /* c */\n'
        b"#define OBJ (1)\n"
        b'#include "dir/x.h"\n'
        b"#include <y.h>\n"
        b"#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n"
        b"#pragma OPENCL FP_CONTRACT ON\n"
        b"#ifdef FOO\n#endif\n#\n#warning hi\n#bogus x\n"
    )
    ds = scan_directives(text)
    assert [d.kind for d in ds] == [
        "define", "define", "include", "include", "pragma", "pragma", "ifdef", "endif", "null", "warning", "other",
    ]  # fmt: skip
    f = ds[0]
    assert f.start == 0 and text[f.end : f.end + 1] == b"\n"
    assert f.name == "F" and text[f.name_start : f.name_end] == b"F"
    assert f.params == ("a", "b") and f.body == "a + b"
    assert ds[1].params is None and ds[1].body == "(1)"  # space before '(': object-like
    assert (ds[2].path, ds[2].angled) == ("dir/x.h", False)
    assert text[ds[2].path_start : ds[2].path_end] == b'"dir/x.h"'
    assert (ds[3].path, ds[3].angled) == ("y.h", True)
    p = ds[4].pragma
    assert p is not None and (p.kind, p.name, p.behavior) == ("extension", "cl_khr_fp64", "enable")
    assert ds[5].pragma is not None and ds[5].pragma.kind == "fp_contract"
    assert ds[6].name == "FOO" and text[ds[6].name_start : ds[6].name_end] == b"FOO"


def test_scanner_skips_comments_and_strings_and_follows_continuations() -> None:
    text = (
        b"/* start\n#if 1\n*/\n"
        b'const char *s = "\\\n#define NOPE";\n'
        b"// line comment \\\n#define ALSO_NOPE\n"
        b"#define LONG 1 + \\\n   2 /* spans\n lines */ + 3\n"
        b"int x; #define NOT_AT_LINE_START\n"
        b"#define AFTER 1\n"
    )
    ds = scan_directives(text)
    assert [d.name for d in ds] == ["LONG", "AFTER"]
    assert ds[0].body == "1 + 2 + 3"
    assert text[ds[0].end - 3 : ds[0].end] == b"+ 3"


def test_scanner_unterminated_comment_in_directive_runs_to_end() -> None:
    ds = scan_directives(b"#define A /* never closed\n#define B\n")
    assert [d.name for d in ds] == ["A"]


# -- expressions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "expected"),
    [
        ("1 + 2 * 3 == 7", True),
        ("(1 ? 0 : 1)", False),
        ("0x10 == 16 && 010 == 8", True),
        ("-1 < 0", True),
        ("-1 < 0u", False),  # unsigned comparison
        ("10 / 3 == 3 && -7 / 2 == -3 && -7 % 2 == -1", True),
        ("1 << 4 == 16 && 256 >> 4 == 16", True),
        ("~0 == -1 && !5 == 0", True),
        ("'A' == 65 && '\\n' == 10", True),
        ("(3 & 5) == 1 && (3 | 5) == 7 && (3 ^ 5) == 6", True),
        ("100ul > 99L", True),
        ("UNDEFINED_NAME == 0", True),
        ("defined UNDEFINED_NAME", False),
        ("__OPENCL_C_VERSION__ >= CL_VERSION_2_0", False),
        ("__OPENCL_C_VERSION__ == 120 && defined(__ENDIAN_LITTLE__)", True),
    ],
)
def test_evaluate(expr: str, expected: bool) -> None:
    assert cond(expr).evaluate(Env(CL12.predefined_macros())) is expected


def test_evaluate_unknowns() -> None:
    env = Env({"REAL": "double", "BROKEN": "1 +", "ZERO": "0"})
    assert cond("REAL == 0").evaluate(env) is True  # C: the remaining identifier 'double' is 0
    assert cond("BROKEN == 1").evaluate(env) is None  # not an expression
    assert cond("1 / ZERO").evaluate(env) is None  # division by zero
    assert cond("0 && BROKEN").evaluate(env) is False  # short-circuit past the unknown
    assert cond("1 || BROKEN").evaluate(env) is True


@pytest.mark.parametrize(
    "expr", ["", "1 +", "(1", "1 2", "defined", "defined(", "1.5", "09", "12abc", "1 ? 2", "\"s\""]
)
def test_malformed_expressions_raise_expr_error(expr: str) -> None:
    with pytest.raises(ExprError):
        parse_tokens(_defined(tokenize(expr)))


def test_implication_queries() -> None:
    assert cond("defined(__opencl_c_fp64)").implies_defined("__opencl_c_fp64")
    either = cond("defined(cl_khr_fp64) || defined(__opencl_c_fp64)")
    assert not either.implies_defined("cl_khr_fp64")
    assert not either.implies_defined("__opencl_c_fp64")
    assert either.implies_any_defined(FP64)
    assert not cond("!defined(cl_khr_fp64)").implies_defined("cl_khr_fp64")
    assert cond("!!defined(cl_khr_fp64)").implies_defined("cl_khr_fp64")
    assert cond("cl_khr_fp64").implies_defined("cl_khr_fp64")  # truthy needs defined
    assert cond("defined(A) && (defined(B) || X > 3)").implies_defined("A")
    assert not cond("defined(A) && (defined(B) || X > 3)").implies_defined("B")
    # A contradictory disjunct is dropped: (!A && A) || A.
    assert cond("(!defined(A) && defined(A)) || defined(A)").implies_defined("A")
    assert not cond("1").implies_defined("A")
    assert cond("0").implies_defined("A")  # vacuous: never true


def test_min_version() -> None:
    assert cond("__OPENCL_C_VERSION__ >= CL_VERSION_2_0").implied_min_version() == 200
    assert cond("__OPENCL_C_VERSION__ > 120").implied_min_version() == 121
    assert cond("CL_VERSION_2_0 <= __OPENCL_C_VERSION__").implied_min_version() == 200
    assert cond("!(__OPENCL_C_VERSION__ < 300)").implied_min_version() == 300
    assert cond("__OPENCL_C_VERSION__ >= 200 || __OPENCL_C_VERSION__ >= 300").implied_min_version() == 200
    assert cond("__OPENCL_C_VERSION__ >= 200 || defined(X)").implied_min_version() is None
    assert cond("__OPENCL_C_VERSION__ < 200").implied_min_version() is None
    assert cond("__OPENCL_C_VERSION__ >= 200").implies_defined("__OPENCL_C_VERSION__")


# -- regions and guards -----------------------------------------------------------------------


def test_ifdef_feature_guard() -> None:
    text, v = view("#ifdef __opencl_c_fp64\ndouble d;\n#endif\nint after;\n", CL30)
    o = at(text, "double")
    assert v.active_at(o) is False
    assert v.guard_implies(o, "__opencl_c_fp64")
    assert not v.guard_implies(o, "cl_khr_fp64")
    assert [str(c) for c in v.conditions_at(o)] == ["defined(__opencl_c_fp64)"]
    assert v.active_at(at(text, "after")) is True and v.conditions_at(at(text, "after")) == []
    assert not v.guard_implies(at(text, "after"), "__opencl_c_fp64")
    assert v.inactive_ranges() == [(at(text, "#ifdef") + len("#ifdef __opencl_c_fp64"), at(text, "#endif"))]
    _, v_all = view("#ifdef __opencl_c_fp64\ndouble d;\n#endif\n", CL30_ALL)
    assert v_all.inactive_ranges() == [] and v_all.active_at(at(text, "double")) is True


def test_either_fp64_macro_guard() -> None:
    text, v = view("#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)\ndouble d;\n#endif\n")
    o = at(text, "double")
    assert not v.guard_implies(o, "cl_khr_fp64")
    assert v.guard_implies_any(o, FP64)


def test_ifndef_else_branch_implies_defined() -> None:
    text, v = view("#ifndef cl_khr_fp64\nfloat f;\n#else\ndouble d;\n#endif\n", CL12.apply_overrides("+cl_khr_fp64"))
    assert v.guard_implies(at(text, "double"), "cl_khr_fp64")
    assert not v.guard_implies(at(text, "float"), "cl_khr_fp64")
    assert v.active_at(at(text, "double")) is True and v.active_at(at(text, "float")) is False


def test_elif_chain_and_negations() -> None:
    src = (
        "#if __OPENCL_C_VERSION__ >= CL_VERSION_3_0\nthree;\n"
        "#elif __OPENCL_C_VERSION__ >= CL_VERSION_2_0\ntwo;\n"
        "#elif !defined(cl_khr_fp64)\nnofp;\n"
        "#else\nfp;\n#endif\n"
    )
    for target, live in [(CL30, "three"), (CL20, "two"), (CL12, "nofp"), (CL12.apply_overrides("+cl_khr_fp64"), "fp")]:
        text, v = view(src, target)
        states = {w: v.active_at(at(text, "\n" + w + ";")) for w in ("three", "two", "nofp", "fp")}
        assert [w for w, s in states.items() if s] == [live], target.name
        assert all(s is False for w, s in states.items() if w != live)
    text, v = view(src)
    assert v.guard_min_version(at(text, "two;")) == 200
    assert v.guard_min_version(at(text, "three;")) == 300
    assert v.guard_min_version(at(text, "nofp;")) is None
    # Reached through '#else' after '!defined': implies the extension.
    assert v.guard_implies(at(text, "\nfp;"), "cl_khr_fp64")
    assert not v.guard_implies(at(text, "nofp;"), "cl_khr_fp64")


def test_if_zero_is_dead_code_and_nested_groups() -> None:
    src = "a;\n#if 0\nb;\n#if 1\nc;\n#endif\nd;\n#else\ne;\n#endif\nf;\n"
    text, v = view(src)
    assert [v.active_at(at(text, w + ";")) for w in "abcdef"] == [True, False, False, False, True, True]
    (start, end), = v.inactive_ranges()
    assert start == at(text, "\nb;") and end == at(text, "#else")
    assert len(v.conditions_at(at(text, "c;"))) == 2  # innermost last
    assert str(v.conditions_at(at(text, "c;"))[-1]) == "1"


def test_version_guard_against_targets() -> None:
    src = "#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0\ngeneric_stuff;\n#endif\n"
    for target, expected in [(CL12, False), (CL20, True), (CL30, True)]:
        text, v = view(src, target)
        assert v.active_at(at(text, "generic")) is expected
        assert v.guard_min_version(at(text, "generic")) == 200


def test_defines_and_undefs_in_conditions() -> None:
    src = (
        "#define USE_FAST 1\n#if USE_FAST\nfast;\n#endif\n"
        "#undef USE_FAST\n#if USE_FAST\nslow;\n#endif\n"
        "#undef __OPENCL_C_VERSION__\n#ifdef __OPENCL_C_VERSION__\nver;\n#endif\n"
        "#define TWICE(x) ((x) * 2)\n#if TWICE(3) == 6\ncall;\n#endif\n"
    )
    text, v = view(src, defines={"EXTRA": "1"})
    assert v.active_at(at(text, "fast;")) is True
    assert v.active_at(at(text, "slow;")) is False
    assert v.active_at(at(text, "ver;")) is False
    assert v.active_at(at(text, "call;")) is True
    assert v.diagnostics == []
    text, v = view("#if EXTRA && defined(EXTRA)\nx;\n#endif\n", defines={"EXTRA": "1"})
    assert v.active_at(at(text, "x;")) is True


def test_macro_defined_under_guard_carries_the_guard() -> None:
    src = "#ifdef cl_khr_fp64\n#define HAS_FP64 1\n#endif\n#if HAS_FP64\ndouble d;\n#endif\n#ifdef HAS_FP64\nd2;\n#endif\n"
    for target, active in [(CL12, False), (CL12.apply_overrides("+cl_khr_fp64"), True)]:
        text, v = view(src, target)
        assert v.active_at(at(text, "double")) is active
        assert v.active_at(at(text, "d2;")) is active
        assert v.guard_implies(at(text, "double"), "cl_khr_fp64")
        assert v.guard_implies(at(text, "d2;"), "cl_khr_fp64")


def test_if_in_the_middle_of_a_parameter_list() -> None:
    src = (
        "kernel void k(global float *a,\n"
        "#ifdef cl_khr_fp64\n  global double *b,\n#else\n  global float *b,\n#endif\n  int n) {}\n"
    )
    text, v = view(src)
    assert v.active_at(at(text, "global double")) is False
    assert v.active_at(at(text, "global float *b")) is True
    assert v.active_at(at(text, "int n")) is True
    assert v.guard_implies(at(text, "global double"), "cl_khr_fp64")


def test_line_continuation_in_condition() -> None:
    text, v = view("#if defined(cl_khr_fp64) && \\\n    __OPENCL_C_VERSION__ >= 120\nx;\n#endif\n")
    assert v.diagnostics == []
    assert v.guard_implies(at(text, "x;"), "cl_khr_fp64")
    assert v.guard_min_version(at(text, "x;")) == 120


# -- diagnostics ------------------------------------------------------------------------------


def test_conditional_structure_diagnostics() -> None:
    text, v = view("#if 1\n#else\n#else\n#endif\n#endif\n#elif 1\n#ifdef A\nx;\n")
    msgs = [(d.code, d.message) for d in v.diagnostics]
    assert msgs == [
        ("CL003", "'#else' after '#else'"),
        ("CL003", "'#endif' without '#if'"),
        ("CL003", "'#elif' without '#if'"),
        ("CL003", "unterminated conditional directive '#ifdef'"),
    ]
    last = v.diagnostics[-1].span
    assert text[last.start : last.end] == b"#ifdef A"
    assert v.active_at(at(text, "x;")) is False  # still inside the unterminated group


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("#if\n", "'#if' with no expression"),
        ("#if 1 +\n", "expected value in expression"),
        ("#if (1\n", "expected ')' in expression"),
        ("#if defined(\n", "macro name missing after 'defined'"),
        ("#if 1.0\n", "floating point literal in preprocessor expression"),
        ("#ifdef\n", "macro name missing"),
    ],
)
def test_malformed_if_is_cl004(line: str, message: str) -> None:
    text, v = view(line + "x;\n#endif\n")
    (d,) = v.diagnostics
    assert (d.code, d.severity, d.message) == ("CL004", Severity.ERROR, message)
    assert v.active_at(at(text, "x;")) is None  # unknown, not dimmed
    assert v.inactive_ranges() == []


def test_no_cl004_inside_dead_code() -> None:
    _, v = view("#if 0\n#if 1 +\n#endif\n#endif\n")
    assert v.diagnostics == []


# -- macros -----------------------------------------------------------------------------------


def test_type_macros_and_visibility() -> None:
    src = (
        "#define GLOBAL_AS __global\n#define REAL double\n#define DECLSPEC inline static\n"
        "#define EMPTY\n#define PTR GLOBAL_AS REAL *\n#define NUM 1 + 2\n#define F(T) GLOBAL_AS T *\n"
        "use1;\n#undef REAL\nuse2;\n#if 0\n#define HIDDEN int\n#endif\nuse3;\n"
    )
    text, v = view(src)
    o = at(text, "use1")
    assert v.expand_type_macro("GLOBAL_AS", o) == "__global"
    assert v.expand_type_macro("DECLSPEC", o) == "inline static"
    assert v.expand_type_macro("EMPTY", o) == ""
    assert v.expand_type_macro("PTR", o) == "__global double *"
    assert v.expand_type_macro("NUM", o) is None
    assert v.expand_type_macro("F", o) is None
    assert v.expand_macro_call("F", ["float"], o) == "__global float *"
    assert v.expand_type_macro("GLOBAL_AS", at(text, "#define GLOBAL_AS")) is None  # not yet defined
    o2 = at(text, "use2")
    assert v.macro_at("REAL", o2) is None
    assert v.expand_type_macro("PTR", o2) == "__global REAL *"
    m = v.macro_at("GLOBAL_AS", o2)
    assert m is not None and text[m.span.start : m.span.end] == b"GLOBAL_AS" and m.span.file == "main.cl"
    assert v.macro_at("HIDDEN", at(text, "use3")) is None


def test_macro_in_unknown_branch_is_flagged() -> None:
    text, v = view("#if BROKEN == 1\n#define X int\n#endif\nuse;\n", defines={"BROKEN": "1 +"})
    m = v.macro_at("X", at(text, "use"))
    assert m is not None and m.conditional


# -- includes ---------------------------------------------------------------------------------


def _resolver(files: dict[str, str], calls: list | None = None):
    def resolve(path: str, angled: bool, including: str):
        if calls is not None:
            calls.append((path, angled, including))
        if path in files:
            return path, files[path].encode()
        return None

    return resolve


def test_macros_across_includes_and_include_graph() -> None:
    files = {
        "defs.h": '#ifndef DEFS_H\n#define DEFS_H\n#include "more.h"\n#define GLOBAL_AS __global\n#endif\n',
        "more.h": "#define REAL double\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n",
    }
    calls: list = []
    src = '#include "defs.h"\n#include "defs.h"\nuse;\n#ifdef DEFS_H\nguarded;\n#endif\n'
    text, v = view(src, include_resolver=_resolver(files, calls))
    o = at(text, "use")
    assert v.expand_type_macro("GLOBAL_AS", o) == "__global"
    assert v.expand_type_macro("REAL", o) == "double"
    assert v.macro_at("REAL", o).span.file == "more.h"  # type: ignore[union-attr]
    assert v.extension_state_at(o, "cl_khr_fp64") == "enable"
    assert v.active_at(at(text, "guarded")) is True
    assert [(r.path, r.resolved) for r in v.includes] == [("defs.h", "defs.h"), ("defs.h", "defs.h")]
    assert ("more.h", False, "defs.h") in calls
    assert calls.count(("more.h", False, "defs.h")) == 1  # second inclusion stopped by the guard
    assert v.diagnostics == []


def test_missing_include_is_cl002_warning() -> None:
    text, v = view('#include "foo.h"\n#include <bar.h>\n#if 0\n#include "dead.h"\n#endif\n', include_resolver=_resolver({}))
    assert [(d.code, d.severity, d.message) for d in v.diagnostics] == [
        ("CL002", Severity.WARNING, "cannot find include file 'foo.h'"),
        ("CL002", Severity.WARNING, "cannot find include file 'bar.h'"),
    ]
    sp = v.diagnostics[0].span
    assert text[sp.start : sp.end] == b'"foo.h"'
    assert [r.resolved for r in v.includes] == [None, None, None]
    assert v.includes[2].active is False


def test_include_cycles_and_raising_resolver() -> None:
    files = {"a.h": '#include "b.h"\n#define A 1\n', "b.h": '#include "a.h"\n#define B 1\n'}
    text, v = view('#include "a.h"\nuse;\n', include_resolver=_resolver(files))
    o = at(text, "use")
    assert v.macro_at("A", o) is not None and v.macro_at("B", o) is not None

    def boom(path: str, angled: bool, including: str):
        raise OSError("disk on fire")

    _, v = view('#include "x.h"\n', include_resolver=boom)
    assert [d.code for d in v.diagnostics] == ["CL002"]


def test_self_include_with_pragma_once() -> None:
    files = {"self.h": '#pragma once\n#include "self.h"\n#define S 1\n'}
    text, v = view('#include "self.h"\n#include "self.h"\nuse;\n', include_resolver=_resolver(files))
    assert v.macro_at("S", at(text, "use")) is not None


# -- pragmas ----------------------------------------------------------------------------------


def test_extension_pragma_regions() -> None:
    src = (
        "a;\n#pragma OPENCL EXTENSION cl_khr_fp64 : enable\nb;\n"
        "#if 0\n#pragma OPENCL EXTENSION cl_khr_fp64 : disable\n#endif\nc;\n"
        "#pragma OPENCL EXTENSION all : disable\nd;\n"
        "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\ne;\n"
    )
    text, v = view(src)
    state = {w: v.extension_state_at(at(text, w + ";"), "cl_khr_fp64") for w in "abcde"}
    assert state == {"a": None, "b": "enable", "c": "enable", "d": "disable", "e": "disable"}
    assert v.extension_state_at(at(text, "e;"), "cl_khr_fp16") == "enable"
    ev = v.extension_pragma_at(at(text, "b;"), "cl_khr_fp64")
    assert ev is not None and text[ev.span.start : ev.span.end].startswith(b"#pragma OPENCL")


# -- robustness and performance -----------------------------------------------------------------


def test_invalid_utf8_and_odd_bytes() -> None:
    text = b"#define \xff\xfe BAD\n#if \xc3\x28 == 0\nx;\n#endif\n#include \"\xff.h\"\n\x00#if\n"
    _, v = view(text, include_resolver=_resolver({}))
    assert {d.code for d in v.diagnostics} <= {"CL002", "CL003", "CL004"}


def test_five_megabytes_without_crash() -> None:
    code = b"    acc += in[i * stride + j] * weights[j]; /* #if */ // \"x\"\n" * 40
    chunk = (
        b"#if defined(cl_khr_fp64) && __OPENCL_C_VERSION__ >= 120\n#define T double\n#else\n"
        b"#define T float /* \n */\n#endif\nkernel void k(global T *p) { p[0] = 1; } // \\\n"
        b'const char *s = "#if";\n#if (((\n#endif\n#endif\n' + code
    )
    text = chunk * (5_000_000 // len(chunk)) + b"/* unterminated"
    v = build_view("big.cl", text, target=CL12)
    assert v.diagnostics  # malformed '#if' and stray '#endif' reported


def test_hostile_nesting_and_expression_depth() -> None:
    deep = "#if " + "(" * 5000 + "1" + ")" * 5000 + "\n#endif\n"
    _, v = view(deep)
    assert [d.code for d in v.diagnostics] == ["CL004"]
    nested = "#if 1\n" * 3000 + "x;\n" + "#endif\n" * 3000
    text, v = view(nested)
    assert v.active_at(at(text, "x;")) is True and len(v.conditions_at(at(text, "x;"))) == 3000
    recursive = "#define A B\n#define B A\n#if A\n#endif\n#define F(x) F(x)\n#if F(1)\n#endif\n"
    _, v = view(recursive)
    # A -> B -> A stops (0); F(1) -> F(1) leaves a call clang also rejects.
    assert [d.message for d in v.diagnostics] == ["function-like macro 'F' is not defined"]  # clang's words


def _realistic_file(lines: int) -> bytes:
    block = (
        "#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)\n"
        "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n#define REAL double\n#else\n#define REAL float\n#endif\n"
        "/* a comment with \"quotes\" and #if inside */\n"
        "kernel void k{n}(__global REAL *out, __global const REAL *in, int n) {{\n"
        "    int i = get_global_id(0); // index\n"
        "    if (i < n) out[i] = in[i] * 2.0f + 'a';\n"
        "#if __OPENCL_C_VERSION__ >= CL_VERSION_2_0\n    work_group_barrier(CLK_LOCAL_MEM_FENCE);\n"
        "#else\n    barrier(CLK_LOCAL_MEM_FENCE);\n#endif\n}}\n"
    )
    per = block.count("\n")
    return "".join(block.format(n=i) for i in range(lines // per + 1)).encode()


@pytest.mark.parametrize("density", ["directive-heavy", "typical"])
def test_build_view_on_a_3000_line_file(density: str) -> None:
    # Speed is measured in bench/ (figures, not timed assertions); here: the result is whole.
    text = _realistic_file(3000) if density == "directive-heavy" else _typical_file(3000)
    assert text.count(b"\n") >= 3000
    v = build_view("f.cl", text, target=CL12)
    assert not v.diagnostics
    assert v.active_at(len(text) - 1) is True


def _typical_file(lines: int) -> bytes:
    """About one directive per 20 lines, as in real kernels."""
    body = "".join(f"    acc{k} += in[i * {k} + j] * w[j]; // tap {k}\n" for k in range(17))
    block = "#if __OPENCL_C_VERSION__ >= 200\n#define FENCE 1\n#endif\nkernel void k(global float *in) {{\n" + body + "}}\n"
    return (block * (lines // block.count("\n") + 1)).encode()


def _timed(text: bytes) -> float:
    start = time.perf_counter()
    build_view("f.cl", text, target=CL12)
    return time.perf_counter() - start


def test_gnu_named_variadic_parameter_takes_every_remaining_argument() -> None:
    # `x...` names the variable arguments as `__VA_ARGS__` does: all of them, commas included
    text, v = view("#define make_short2(x...) ((short2)(x))\n"
                   "#define TAG(t, rest...) t: rest\n"
                   "// use\n")
    o = text.index(b"// use")

    def expand(src: str) -> str:
        out = v.expand(tokenize(src), o)
        assert out is not None
        return " ".join(t.text for t in out)

    assert expand("make_short2(a, b)") == "( ( short2 ) ( a , b ) )"
    assert expand("TAG(k, 1, 2)") == "k : 1 , 2"
