"""CL603-CL605 in detail: wording (both sides named, widths where they differ), the notes,
the fix, and the parameter sizes read from the kernel."""

from __future__ import annotations

import pytest

from cllint.analysis.embedded import lint_host
from cllint.analysis.embedded.host_args import ParamKind, kernel_param
from cllint.analysis.lint import LintOptions
from cllint.grammar import parse

HOST = b'''import numpy as np
import pyopencl as cl
prg = cl.Program(ctx, "__kernel void k(__global float *a, float s, __local int *t) { }").build()
prg.k(queue, (4,), (4,), a_buf, 2.0, cl.LocalMemory(16))
prg.k(queue, (4,), (4,), a_buf, np.float64(2), cl.LocalMemory(16))
prg.k(queue, (4,), (4,), np.ones(4), np.float32(2), None)
prg.k(queue, (4, 4), (4,), a_buf, np.float32(2), cl.LocalMemory(16))
'''


def reports() -> list[tuple[str, str, str, list[str]]]:
    out = []
    for d in lint_host("h.py", HOST, LintOptions()):
        notes = [f"{HOST[n.span.start:n.span.end].decode()}: {n.message}" for n in d.notes]
        out.append((d.code, HOST[d.span.start:d.span.end].decode(), d.message, notes))
    return out


def test_messages_name_both_sides_and_point_at_the_declaration() -> None:
    assert reports() == [
        ("CL603", "2.0", "Python 'float' argument cannot be passed to parameter 's' of type 'float': pyopencl needs "
         "a sized numpy scalar here",
         ["float s: parameter 's' declared here"]),
        ("CL603", "np.float64(2)", "argument of type 'np.float64' (8 bytes) cannot be passed to parameter 's' "
         "of type 'float' (4 bytes)", ["float s: parameter 's' declared here"]),
        ("CL604", "np.ones(4)", "argument of type 'numpy.ndarray' cannot be passed to parameter 'a' of type "
         "'__global float *'", ["__global float *a: parameter 'a' declared here"]),
        ("CL604", "None", "argument 'None' cannot be passed to parameter 't' of type '__local int *'",
         ["__local int *t: parameter 't' declared here"]),
        ("CL605", "(4,)", "local size has 1 dimension but global size has 2", ["(4, 4): global size given here"]),
    ]


def test_the_fix_passes_the_parameters_numpy_type() -> None:
    fixes = {HOST[d.span.start:d.span.end].decode(): d.fix for d in lint_host("h.py", HOST, LintOptions())
             if d.code == "CL603"}
    assert {k: [e.replacement for e in f.edits] for k, f in fixes.items() if f} == \
        {"2.0": ["np.float32(2.0)"], "np.float64(2)": ["np.float32(2)"]}


def test_selection_by_code_applies() -> None:
    codes = {d.code for d in lint_host("h.py", HOST, LintOptions(select=("CL605",)))}
    assert codes == {"CL605"}


@pytest.mark.parametrize(("decl", "kind", "size"), [
    ("float3 v", ParamKind.SCALAR, 16), ("uchar c", ParamKind.SCALAR, 1), ("unsigned int n", ParamKind.SCALAR, 4),
    ("const double2 d", ParamKind.SCALAR, 16), ("half h", ParamKind.SCALAR, 2), ("size_t n", ParamKind.OTHER, None),
    ("real x", ParamKind.OTHER, None), ("float *p", ParamKind.OTHER, None), ("read_only image2d_t i", ParamKind.OTHER, None),
    ("__constant float4 *c", ParamKind.POINTER, None),
])
def test_parameter_sizes(decl: str, kind: ParamKind, size: int | None) -> None:
    tree = parse(f"__kernel void k({decl}) {{ }}".encode())
    fn = tree.root_node.named_children[0].child_by_field_name("declarator")
    [param] = fn.child_by_field_name("parameters").named_children  # type: ignore[union-attr]
    got = kernel_param(param)
    assert (got.kind, got.size) == (kind, size)
