"""The address-space expression pass walks the focus's definitions by bisection
(`SemanticModel.definitions_in`) and the others only where a helper's call sites are asked for
(CL114's fix): a keystroke asked each of basic.cl's 67 definitions for its body and focus
(issue 32, session 21). Held-out case: test_addrspace_expressions_focus_heldout.py."""

from __future__ import annotations

from cllint.analysis.addrspace import expressions
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.target import Target

OPTIONS = LintOptions(target=Target.preset("CL1.2"), select=("CL1",))
N = 25
TEXT = b"".join(b"kernel void k%d(global float *o, local float *l) { l[0] = o[%d]; o[1] = l[0]; }\n" % (i, i)
                for i in range(N))


def _full(src: bytes) -> list:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return host.snapshot().diagnostics("k.cl")


def test_expressions_asks_focus_once(monkeypatch) -> None:  # noqa: ANN001
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    host.snapshot().diagnostics("k.cl")
    asked: list[int] = []
    real = expressions.in_focus

    def counting(focus, node):  # noqa: ANN001, ANN202
        asked.append(node.start_byte)
        return real(focus, node)

    monkeypatch.setattr(expressions, "in_focus", counting)
    at = TEXT.index(b"o[1]", len(TEXT) // 2)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"float *q = l; ")]}))
    got = host.snapshot().diagnostics("k.cl")
    assert got == _full(TEXT[:at] + b"float *q = l; " + TEXT[at:])
    assert len(asked) <= 2, len(asked)  # not one per definition


def test_wrong_space_call_in_focus_reported() -> None:
    helper = b"float get(float *p) { return p[0]; }\n"
    src = helper + TEXT
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    assert host.snapshot().diagnostics("k.cl") == []
    at = src.index(b"o[1] = l[0];", len(src) // 2)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"o[2] = get(o); ")]}))
    got = host.snapshot().diagnostics("k.cl")
    assert [d.code for d in got] == ["CL114"] and got[0].fix is not None
    assert got == _full(src[:at] + b"o[2] = get(o); " + src[at:])


def test_focused_call_into_overload_set() -> None:
    sets = (b"__attribute__((overloadable)) float get(__global float *p) { return p[0]; }\n"
            b"__attribute__((overloadable)) float get(__local float *p) { return p[0]; }\n")
    src = sets + TEXT
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    host.snapshot().diagnostics("k.cl")
    at = src.index(b"o[1] = l[0];", len(src) // 2)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"o[2] = get(o) + get(l); ")]}))
    assert host.snapshot().diagnostics("k.cl") == []
