"""CL4xx (OpenCL C 6.11 restrictions) on labelled fixtures, with clang-19 as the oracle where
it diagnoses the same thing (everything but recursion, which compilers accept)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.target import Target
from cllint.grammar import parse

FIXTURES = Path(__file__).parent / "rules" / "fixtures" / "restrictions"
EXPECT = re.compile(r"^// expect: (CL4\d\d) line (\d+)\s*$", re.M)
CLANG = shutil.which("clang-19")
CASES = [(p, t) for p in sorted(FIXTURES.glob("*.cl"))
         for t in re.search(r"^// targets: (.+)$", p.read_text(), re.M).group(1).split()]  # type: ignore[union-attr]


def lint(source: bytes, target: str) -> list:
    options = LintOptions(target=Target.preset(target), mode="target", select=("CL4",))
    return lint_tree("t.cl", source, parse(source), options)


def lines(source: bytes, diags: list) -> list[tuple[str, int]]:
    return sorted((d.code, source.count(b"\n", 0, d.span.start) + 1) for d in diags)


@pytest.mark.parametrize(("path", "target"), CASES, ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_fixture(path: Path, target: str) -> None:
    source = path.read_bytes()
    expected = sorted((c, int(n)) for c, n in EXPECT.findall(path.read_text()))
    assert lines(source, lint(source, target)) == expected


@pytest.mark.skipif(CLANG is None, reason="clang-19 not installed (Debian package clang-19)")
@pytest.mark.parametrize(("path", "target"), CASES, ids=lambda x: x.stem if isinstance(x, Path) else x)
def test_agrees_with_clang(path: Path, target: str) -> None:
    """Every line clang rejects for a 6.11 restriction carries a CL401-CL406, and no other."""
    res = subprocess.run([CLANG, "-x", "cl", f"-cl-std={target}", "-Xclang", "-finclude-default-header",
                          "-fsyntax-only", "-ferror-limit=0", str(path)], capture_output=True, text=True)
    clang = {int(m.group(1)) for m in re.finditer(r"^[^:]+:(\d+):\d+: error: ", res.stderr, re.M)}
    source = path.read_bytes()
    ours = {ln for code, ln in lines(source, lint(source, target)) if code != "CL407"}
    assert ours == clang, res.stderr


def test_messages_say_what_and_why() -> None:
    source = (FIXTURES / "positives.cl").read_bytes()
    by_code = {}
    for d in lint(source, "CL1.2"):
        by_code.setdefault(d.code, []).append(d)
    assert by_code["CL404"][0].message == ("variable length arrays are not supported in OpenCL C: "
                                           "the size 'n' reads 'n', a parameter")
    assert by_code["CL404"][0].notes and "declared here" in by_code["CL404"][0].notes[0].message
    assert by_code["CL402"][0].message.startswith("function 'sum' takes variable arguments")
    ping = [d for d in by_code["CL407"] if "leads back" in d.message]
    assert [d.message for d in ping] == [
        "call to 'ping' leads back to 'pong' ('pong' -> 'ping' -> 'pong'): recursion is not supported in OpenCL C",
        "call to 'pong' leads back to 'ping' ('ping' -> 'pong' -> 'ping'): recursion is not supported in OpenCL C"]
    assert ping[0].notes and ping[0].notes[0].message.endswith("defined here")
    assert by_code["CL407"][0].severity.value == "warning"


def test_compiled_out_code_is_silent() -> None:
    source = b"#if 0\nint f(int n, ...);\n#endif\nkernel void k(global int *p) { p[0] = 1; }\n"
    assert lint(source, "CL1.2") == []


def test_unknown_size_names_are_silent() -> None:
    """A macro or a name the file does not declare could be a constant: never a guess."""
    source = b"kernel void k(global int *p) { int a[UNKNOWN_SIZE]; int b[SIZE(4)]; p[0] = a[0] + b[0]; }\n"
    assert lint(source, "CL1.2") == []


def test_a_statement_macro_without_its_semicolon_is_no_declaration() -> None:
    """`M(x)` with no `;` before `a[i] = v;` reads as a declaration of an array `a[i]` of type
    `M(x)`: never a variable length array (john: a key-generation macro in a `#ifdef` arm)."""
    source = (b"#define GEN(id) do { w[0] = id; } while (0);\n"
              b"kernel void k(global uint *total, uint cand) {\n  uint gid = get_global_id(0), w[16];\n"
              b"#ifdef MASK_MODE\n  GEN(cand)\n#endif\n  total[gid] = w[0];\n}\n")
    assert lint(source, "CL1.2") == []
    # a real one is still reported, whatever its element type is spelled with
    vla = b"#define T(x) x\nkernel void k(global int *p, int n) { T(int) a[n]; p[0] = a[0]; }\n"
    assert [d.code for d in lint(vla, "CL1.2")] == ["CL404"]


EDITOR = LintOptions(target=Target.preset("CL1.2"))


def _opened(text: bytes) -> Host:
    host = Host(EDITOR)
    host.set_file("f", text)
    return host


def _edit(host: Host, start: int, end: int, new: bytes) -> None:
    host.apply_change(Change(edits={"f": [TextEdit(start, end, new)]}))


def test_recursion_follows_edits_in_the_editor() -> None:
    """A cycle a -> b -> c -> a reported on a's call: breaking it in c (an edit a's function
    does not contain) must clear a's report, as a fresh lint does."""
    text = (b"int a(int n);\nint c(int n) { return n ? a(n - 1) : 0; }\n"
            b"int b(int n) { return c(n); }\nint a(int n) { return b(n); }\n"
            b"kernel void k(global int *p) { p[0] = a(3); }\n")
    host = _opened(text)
    assert sorted(d.code for d in host.snapshot().diagnostics("f")) == ["CL407"] * 3
    start = text.index(b"a(n - 1)")
    _edit(host, start, start + 1, b"b")  # c now calls b
    fresh = Host(EDITOR)
    fresh.set_file("f", host.snapshot().text("f"))
    assert [d.code for d in fresh.snapshot().diagnostics("f")] == ["CL407", "CL407"]  # b <-> c
    assert host.snapshot().diagnostics("f") == fresh.snapshot().diagnostics("f")


def test_recursion_in_the_editor_on_a_broken_tree() -> None:
    """`t[0 mid(t);]`: error recovery reads a call to `mid` inside a broken subscript. The
    editor's cheap call scan must not miss what the model sees. (`t[0mid(t);]` no longer
    does: `0mid` is one preprocessing number, as in C.)"""
    from cllint.analysis.lint import suppress_all

    text = (b"void leaf(local float *t) { t[0] = 0.0f; }\n"
            b"void mid(local float *t) { leaf(t); }\n"
            b"kernel void k(local float *t) { mid(t); }\n")
    host = _opened(text)
    host.snapshot().diagnostics("f")
    pos = text.index(b"0] = 0.0f") + 1
    _edit(host, pos, pos, b" mid(t);")
    snap = host.snapshot()
    full = lint_tree("f", snap.text("f"), snap.tree("f"), EDITOR, preprocessor=snap.preprocessor("f"),
                     suppress=False)
    full = suppress_all("f", snap.text("f"), full, EDITOR)
    assert "CL407" in [d.code for d in full]
    assert snap.diagnostics("f") == full
