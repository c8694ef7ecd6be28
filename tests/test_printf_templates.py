"""Kernel files that are printf formats (issue 29): a host reads the file and fills `%s` lines
with code before building (`asprintf(&src, skel, macros, params, line)`, ufo-filters'
one-liner skeleton). A compiler never sees the file as it is: it is skipped with one note (CL006),
as Jinja and Mako templates are. A placeholder counts on a code line of its own (`%s`, `%s;`,
`%d,`), outside comments and strings, after a line that ends a statement, a declaration's
opening or a directive: `x = a` / `  % s;` is C's remainder.

Cases written before the change; HELDOUT scored only once it was done."""

from __future__ import annotations

import pytest

from cllint.analysis.source_kind import not_opencl_reason

TUNE = {
    "skeleton": (b"#define IMG(x) (in[x])\n// inputs\n%s\n__kernel void one(\n%s\n__global float *out)\n{\n"
                 b"  size_t i = get_global_id(0);\n  // the line\n  %s;\n}\n", True),
    "printf_in_a_kernel": (b'__kernel void k(__global int *o) {\n  printf("%d %s\\n", o[0], "x");\n'
                           b'  printf("%s\\n",\n"%s");\n}\n', False),
    "remainder_over_two_lines": (b"__kernel void k(__global int *o, int s) {\n  int a = o[0];\n"
                                 b"  o[1] = a\n    %s;\n}\n", False),
}

HELDOUT = {
    "statement_placeholder": (b"__kernel void k(__global float *o) {\n  o[0] = 1;\n  %s\n}\n", True),
    "placeholder_in_a_comment": (b"/* fill:\n%s\n*/\n__kernel void k(__global float *o) { o[0] = 1; }\n", False),
    "parameter_placeholder": (b"__kernel void k(\n%d,\n__global float *o) { o[0] = 2; }\n", True),
}


@pytest.mark.parametrize("name", sorted(TUNE))
def test_tune(name: str) -> None:
    text, template = TUNE[name]
    reason = not_opencl_reason(text)
    assert (reason is not None and "printf" in reason) if template else reason is None, reason


@pytest.mark.parametrize("name", sorted(HELDOUT))
def test_heldout(name: str) -> None:
    text, template = HELDOUT[name]
    reason = not_opencl_reason(text)
    assert (reason is not None and "printf" in reason) if template else reason is None, reason
