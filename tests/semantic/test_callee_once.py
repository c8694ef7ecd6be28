"""CL013 on calls to the file's own functions: whether a callee's declarations can be trusted
(no macro in a head, no parameter pack, every parameter type known, not under an #if) is
decided once per function and lint, not at every call (issue 32: hashcat's inc_common.cl
makes 33,000 such calls). Labelled cases, clang-19 -cl-std=CL3.0 as the oracle (the #if one
is cllint's documented silence: another arm may declare the function otherwise); each
repeats calls, so a decision kept from one call must hold for the next. heldout/ was scored
once the code was done."""

from __future__ import annotations

from pathlib import Path

import pytest

from cllint.analysis.lint import LintOptions
from cllint.analysis.semantic.context import FileFacts
from cllint.cli.engine import lint_source

HERE = Path(__file__).parent / "fixtures" / "callee_once"
# file -> lines clang-19 reports "too many/few arguments to function call" on
EXPECTED = {
    "tune/wrong_counts_repeated.cl": [4, 5],
    "tune/macro_pack_head_silent.cl": [],
    "tune/under_if_silent.cl": [],
    "heldout/prototype_then_definition.cl": [3, 5],
    "heldout/struct_parameter.cl": [6],
}


def _lines(name: str) -> list[int]:
    path = HERE / name
    data = path.read_bytes()
    diags = lint_source(str(path), data, LintOptions(select=("CL013",)))
    return sorted(data.count(b"\n", 0, d.span.start) + 1 for d in diags if d.code == "CL013")


@pytest.mark.parametrize("name", [n for n in EXPECTED if n.startswith("tune/")])
def test_tune(name: str) -> None:
    assert _lines(name) == EXPECTED[name]


@pytest.mark.parametrize("name", [n for n in EXPECTED if n.startswith("heldout/")])
def test_held_out(name: str) -> None:
    assert _lines(name) == EXPECTED[name]


def test_every_fixture_is_labelled() -> None:
    assert sorted(str(p.relative_to(HERE)) for p in HERE.rglob("*.cl")) == sorted(EXPECTED)


def test_decided_once_per_function(monkeypatch: pytest.MonkeyPatch) -> None:
    """Five calls of one helper ask its heads as often as one call does (other checks ask
    the heads once per body)."""
    asked: list[int] = []
    real = FileFacts.head_has_macro
    monkeypatch.setattr(FileFacts, "head_has_macro", lambda self, d: asked.append(1) or real(self, d))

    def heads_asked(calls: int) -> int:
        asked.clear()
        src = b"float h(float a) { return a; }\nkernel void k(global float *o) {\n" + \
            b"".join(b"  o[%d] = h(o[%d]);\n" % (i, i) for i in range(calls)) + b"}\n"
        assert lint_source("k.cl", src, LintOptions(select=("CL013",))) == []
        return len(asked)

    assert heads_asked(5) == heads_asked(1) > 0
