"""Held-out cases for `walk.items_in` and the address-space declaration pass that uses it
(drawn by crc32(name) % 3 == 0 before the code; tune cases: test_items_in.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.addrspace import declarations
from cllint.analysis.db import Change, Host, TextEdit
from cllint.analysis.lint import LintOptions
from cllint.analysis.model.walk import in_ranges
from cllint.analysis.target import Target
from cllint.grammar import parse

from test_items_in import CONTAINERS, _expected, _got

OPTIONS = LintOptions(target=Target.preset("CL1.2"), select=("CL1",))
N = 25
TEXT = b"".join(b"kernel void k%d(global float *o, local float *l) { l[0] = o[%d]; }\n" % (i, i)
                for i in range(N)) + b"local float stray;\n"


def _full(src: bytes) -> list:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return host.snapshot().diagnostics("k.cl")


def test_declarations_asks_focus_items_only(monkeypatch) -> None:  # noqa: ANN001
    host = Host(OPTIONS)
    host.set_file("k.cl", TEXT)
    host.snapshot().diagnostics("k.cl")
    asked: list[str] = []
    real = declarations.in_focus

    def counting(focus, node):  # noqa: ANN001, ANN202
        asked.append(node.type)
        return real(focus, node)

    monkeypatch.setattr(declarations, "in_focus", counting)
    at = TEXT.index(b"l[0]", len(TEXT) // 2)
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, b"o[1] = 1.0f; ")]}))
    got = host.snapshot().diagnostics("k.cl")
    n = len(asked)  # (before the reference lint below, which asks about everything)
    assert got == _full(TEXT[:at] + b"o[1] = 1.0f; " + TEXT[at:])
    assert n <= N + 3, n  # the kernels' test, not one more per item


def test_declarations_findings_equal_after_edit() -> None:
    src = TEXT + b"kernel void last(global float *o) { local float x; o[0] = 1.0f; }\n"
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    before = host.snapshot().diagnostics("k.cl")
    assert any(d.code.startswith("CL1") for d in before)  # the stray `local` at program scope
    at = src.index(b"o[0] = 1.0f; }")
    edit = b"local float *p = 0; "
    host.apply_change(Change(edits={"k.cl": [TextEdit(at, at, edit)]}))
    assert host.snapshot().diagnostics("k.cl") == _full(src[:at] + edit + src[at:])


BROKEN = b"""float f(float x) { return x; }
int ;
kernel void k(global float *o { o[0] = f(1.0f); }
local float a
kernel void j(global float *o) { o[1] = 2.0f; }
#if A
float g(
#endif
"""


def test_items_in_error_recovery() -> None:
    root = parse(BROKEN).root_node
    assert root.has_error
    for s in range(0, len(BROKEN)):
        for e in (s + 1, s + 7, len(BROKEN)):
            focus = [(s, min(e, len(BROKEN)))]
            assert _got(root, focus) == _expected(root, focus), focus


def _sources() -> list[Path]:
    root = Path(__file__).resolve().parents[2]
    return sorted(root.glob("examples/**/*.cl")) + sorted(root.glob("tests/rules/fixtures/**/*.cl"))[:40]


@pytest.mark.parametrize("path", _sources(), ids=lambda p: p.name)
def test_items_in_examples_every_definition(path: Path) -> None:
    src = path.read_bytes()
    root = parse(src).root_node
    starts = sorted({n.start_byte for n in root.children} | {0, len(src)})
    for s, e in zip(starts, starts[1:]):
        assert _got(root, [(s, e)]) == _expected(root, [(s, e)]), (s, e)
        assert in_ranges([(s, e)], s)
    assert _got(root, None) == _expected(root, None)
