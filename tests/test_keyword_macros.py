"""Keywords the program redefines as macros (issue 29): oneDNN's ocl_types.h has
`#define auto __auto_type`, so `auto k = k_g + g * group_K;` is a deduced-type declaration for
clang-19, not the `auto` storage class: no CL405 for it, and no CL001 for the declaration the
parser cannot read as written (the keyword is read as the one identifier it expands to). A
keyword with no macro in force stays reported.

Cases labelled with clang-19 (-cl-std=CL2.0) before the change; HELDOUT scored after."""

from __future__ import annotations

import pytest

from cllint.analysis.lint import LintOptions, lint_tree
from cllint.grammar import parse

TUNE = {
    "auto_as_auto_type": (b"#define auto __auto_type\nkernel void k(global long *o, long a) {\n"
                          b"    auto k = a + 1;\n    o[0] = k;\n}\n", set()),
    "auto_storage_class": (b"kernel void k(global int *o) {\n    auto int k = 1;\n    o[0] = k;\n}\n", {("CL405", 2)}),
}

HELDOUT = {
    "register_defined_away": (b"#define register\nkernel void k(global int *o) {\n"
                              b"    register int r = 0;\n    o[0] = r;\n}\n", set()),
    "macro_after_the_use": (b"kernel void k(global int *o) {\n    auto int k = 1;\n    o[0] = k;\n}\n"
                            b"#define auto __auto_type\n", {("CL405", 2)}),
}


def _reports(src: bytes) -> set[tuple[str, int]]:
    diags = lint_tree("t.cl", src, parse(src), LintOptions(select=("CL405", "CL001"), std="CL2.0"))
    return {(d.code, src.count(b"\n", 0, d.span.start) + 1) for d in diags}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    src, want = TUNE[name]
    assert _reports(src) == want


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    src, want = HELDOUT[name]
    assert _reports(src) == want
