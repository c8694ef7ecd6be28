"""CL018 reads a definition's name (`redefinitions._name`) only where the file repeats it
(`SemanticModel.definition_names`, walk.name_node's reading, which finds every name `_name`
finds and more): a keystroke read all 67 heads of dartable's basic.cl for it (issue 32,
session 21). Held-out cases: test_redefinitions_prefilter_heldout.py."""

from __future__ import annotations

from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.semantic import redefinitions

OPTIONS = LintOptions(select=("CL018",))


def _lint(src: bytes) -> list[tuple[str, str]]:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return [(d.code, src[d.span.start:d.span.end].decode()) for d in host.snapshot().diagnostics("k.cl")]


def test_macro_word_heads_quiet() -> None:
    # name_node reads `f` through the macro declarator, `_name` reads none: no report, as before
    src = b"int OVL f(int x) { return x; }\nint OVL f(int x) { return x + 1; }\n"
    assert _lint(src) == []


def test_pointer_return_redefinition_reported() -> None:
    src = b"__global float *g(__global float *p) { return p; }\n__global float *g(__global float *p) { return p + 1; }\n"
    assert _lint(src) == [("CL018", "g")]


def test_names_read_only_for_repeated(monkeypatch) -> None:  # noqa: ANN001
    asked: list[int] = []
    real = redefinitions._name

    def counting(d):  # noqa: ANN001, ANN202
        asked.append(d.start_byte)
        return real(d)

    monkeypatch.setattr(redefinitions, "_name", counting)
    src = b"".join(b"float h%d(float x) { return x; }\n" % i for i in range(20)) + \
        b"float h3(float x) { return x * 2.0f; }\n"
    assert _lint(src) == [("CL018", "h3")]
    assert len(asked) == 2, asked  # the two definitions of h3


def test_redefinition_after_edit_equals_full() -> None:
    src = b"".join(b"float h%d(float x) { return x; }\n" % i for i in range(10))
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    assert host.snapshot().diagnostics("k.cl") == []
    at = src.index(b"h7")
    host.apply_change(Change(edits={"k.cl": [TextEdit(at + 1, at + 2, b"2")]}))  # h7 -> h2
    got = host.snapshot().diagnostics("k.cl")
    edited = src[:at + 1] + b"2" + src[at + 2:]
    assert [(d.code, d.span.start) for d in got] == [("CL018", at)]
    assert got == _full(edited)


def _full(src: bytes) -> list:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return host.snapshot().diagnostics("k.cl")
