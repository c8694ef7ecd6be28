"""Template expansion: `%` and `.format(...)` with literal arguments applied to a kernel
literal give the kernel the host builds, Python's own result being the oracle; each filled
placeholder maps to the placeholder's host range, the rest of the text to itself; anything
Python would not fill the same way keeps neutral placeholders."""

from __future__ import annotations

import pytest

from cllint.analysis.embedded import find_kernels

EXPANDED = [  # (assignments before the call, the source expression)
    ("", '"__kernel void k(__global %s *o) { o[0] = %d; }" % ("float", 3)'),
    ("", '"__kernel void k(__global %(t)s *o) { o[0] = %(v)s; }" % {"t": "int", "v": 7}'),
    ("", '"__kernel void {0}(__global {t} *o) {{ o[0] = {1:.1f}f; }}".format("k", 2.5, t="float")'),
    ("", '"__kernel void k(__global int *o) {{ o[0] = {}; o[1] = {}; }}".format(1, -2)'),
    ("", '"__kernel void k(__global int *o) { o[0] = %d %% 2; }" % 5'),
    ("", '"__kernel void k(__global int *o)\\n{\\n\\to[0] = %s;\\n}\\n" % "1"'),
    ("", '("__kernel void k(__global %s *o) "\n    "{ o[0] = 1; }") % "int"'),
    ('SRC = """\n__kernel void k(__global %(t)s *o) { o[0] = 1; }\n"""\n', 'SRC % {"t": "uint"}'),
    ('SRC = "__kernel void {n}(__global int *o) {{ }}".format(n="kk")\n', "SRC"),
]
NEUTRAL = [  # Python would not fill these the same way, or the values are not literals
    ("ctype = 'int'\n", '"__kernel void k(__global %s *o) { o[0] = 1; }" % ctype'),
    ("", '"__kernel void k(__global %s *o) { o[0] = %s; }" % ("int",)'),
    ("", '"__kernel void k(__global int *o) { o[0] = {}; }".format(1)'),
    ("", '("__kernel void k(__global %s *o) { o[0] = 1; }" % "int") % ()'),
]


def host(prelude: str, expr: str) -> bytes:
    return f"import pyopencl as cl\n{prelude}prg = cl.Program(ctx, {expr}).build()\n".encode()


@pytest.mark.parametrize(("prelude", "expr"), EXPANDED)
def test_the_kernel_is_what_python_computes(prelude: str, expr: str) -> None:
    source = host(prelude, expr)
    [kernel] = find_kernels("h.py", source)
    scope: dict = {}
    exec(prelude, scope)
    assert kernel.source.decode() == eval(expr, scope)
    # every byte copied as is maps to the same character in the host file
    for k, byte in enumerate(kernel.source):
        if kernel.positions.is_exact(k, k + 1):
            assert source[kernel.positions.starts[k]] == byte


def test_a_filled_placeholder_maps_to_its_range() -> None:
    source = host("", '"__kernel void k(__global %(t)s *o) { o[0] = %(v)s; }" % {"t": "int", "v": 77}')
    [kernel] = find_kernels("h.py", source)
    for value, placeholder in ((b"int", b"%(t)s"), (b"77", b"%(v)s")):
        at = kernel.source.index(value)
        start, end = kernel.positions.to_host(at, at + len(value))  # type: ignore[misc]
        assert source[start:end] == placeholder
    at = kernel.source.index(b"o[0]")  # after a placeholder of another length
    assert kernel.positions.to_host(at, at + 4) == (source.index(b"o[0]"), source.index(b"o[0]") + 4)
    assert not kernel.positions.placeholders  # nothing left for the host to fill


@pytest.mark.parametrize(("prelude", "expr"), NEUTRAL)
def test_otherwise_placeholders_stay_neutral(prelude: str, expr: str) -> None:
    [kernel] = find_kernels("h.py", host(prelude, expr))
    assert kernel.positions.placeholders
    assert b"__global __ *o" in kernel.source or b"= __;" in kernel.source


def test_snippets_of_generated_kernels_expand_too() -> None:
    source = (b"import pyopencl as cl\nfrom pyopencl.elementwise import ElementwiseKernel\n"
              b'k = ElementwiseKernel(ctx, "%s *x" % "float", "x[i] = {v} * x[i]".format(v="2.0f"))\n')
    [kernel] = find_kernels("h.py", source)
    assert b"float *x" in kernel.source and b"x[i] = 2.0f * x[i]" in kernel.source
    at = kernel.source.index(b"2.0f")
    start, end = kernel.positions.to_host(at, at + 4)  # type: ignore[misc]
    assert source[start:end] == b"{v}"


def test_an_include_whose_path_the_host_fills_in_is_a_computed_include(tmp_path) -> None:  # noqa: ANN001
    # pyopencl's clrandom: `#include <{header_name}>` filled by `.format(header_name=...)` later
    source = ('import pyopencl as cl\ndef build(ctx, header_name, n):\n'
              '    src = """//CL//\n    #include <{header_name}>\n    #include "{sub}/defs.h"\n'
              '    __kernel void k(__global float *o) {{ o[0] = helper(n); }}\n    """\n'
              '    return cl.Program(ctx, src.format(header_name=header_name, sub=n)).build()\n')
    (tmp_path / "host.py").write_text(source)
    import json
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "cllint", "check", "--no-cache", "--format", "json", "--exit-zero",
                           "host.py"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    # no "cannot find include file '__header_name'", and what the header may declare is quiet
    assert json.loads(done.stdout) == []
    [kernel] = find_kernels("host.py", source.encode())
    line = kernel.source.split(b"\n")[1]
    assert line.strip().startswith(b"#include") and b"<" not in line and len(line) == len(b"    #include <{header_name}>")
