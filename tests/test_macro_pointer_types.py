"""A type macro that is a pointer with its pointee's address space written (Bullet3's
`#define counter32_t volatile __global int*`): the space is the pointee's, not the
declaration's. Labels are clang-19's (`-cl-std=CL1.2`)."""

from __future__ import annotations

from cllint.analysis.lint import LintOptions
from cllint.cli.engine import lint_source


def _codes(src: str) -> list[str]:
    return sorted(d.code for d in lint_source("k.cl", src.encode(), LintOptions()) if d.severity.name != "INFO")


def test_a_pointer_macro_parameter_is_no_qualified_parameter() -> None:  # clang-19: accepted
    src = ("#define counter32_t volatile __global int*\n"
           "kernel void k(counter32_t n, global int *p) { p[get_global_id(0)] = atomic_inc(n); }\n")
    assert "CL106" not in _codes(src)


def test_the_macro_pointee_space_is_checked() -> None:  # clang-19: changes address space of pointer
    src = ("#define GP __global float*\nvoid f(GP p) { p[0] = 1.0f; }\n"
           "kernel void g(__local float *l) { f(l); }\n")
    assert "CL101" in _codes(src)


def test_a_pointer_macro_without_a_space_points_to_the_default_space() -> None:  # clang-19: accepted
    src = "#define IP int*\nvoid f(IP p) { p[0] = 1; }\nkernel void g(global int *q) { int x[2]; f(x); q[0] = x[0]; }\n"
    assert _codes(src) == []
