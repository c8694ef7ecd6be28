"""Held-out case of test_definition_names.py (crc32 of the name % 3 == 0, chosen before the code)."""

from __future__ import annotations

from cllint.analysis.db import Host
from cllint.analysis.lint import LintOptions
from cllint.analysis.model import SemanticModel
from cllint.analysis.semantic.build_overloads import build_overloads
from cllint.analysis.semantic.context import FileFacts
from cllint.analysis.target import Target
from cllint.grammar import parse

# libclc's shape: one name defined per argument type behind a word only the build explains.
SOURCE = b"""_CL_OVERLOADABLE char2 convert_char2(uchar2 x) { return (char2)(x.s0, x.s1); }
_CL_OVERLOADABLE char2 convert_char2(short2 x) { return (char2)(x.s0, x.s1); }
float single(float x) { return x; }
float single(float x) { return x + 1.0f; }
kernel void k(__global char2 *o, __global uchar2 *a, __global short2 *b) {
    o[0] = convert_char2(a[0]);
    o[1] = convert_char2(b[0]);
}
"""


def test_build_overloads_as_before() -> None:
    model = SemanticModel(parse(SOURCE), SOURCE, Target.preset("CL1.2"))
    assert build_overloads(FileFacts.of(model, None)) == frozenset({"convert_char2"})
    host = Host(LintOptions(select=("CL01",)))
    host.set_file("k.cl", SOURCE)
    got = sorted((d.code, SOURCE[d.span.start:d.span.end].decode()) for d in host.snapshot().diagnostics("k.cl"))
    assert got == [("CL018", "single")]  # a redefinition; the overload set is none
