"""Files named `.cl` that are C++ (AMD's static C++ kernel language, Bolt's templates) whose
template heads span lines: `template<` then `typename T,` on the next lines (issue 29, item 4).
Written before the change; the held-out third was run only once the code was done."""

from __future__ import annotations

import pytest

from cllint.analysis.source_kind import not_opencl_reason

TUNE = [
    ("template<\n    typename T,\n    typename U >\n__kernel void k(global T* a, U u) { a[0] = u(); }\n", True),
    ("/* keys */\ntemplate <\n  class T>\nT twice(T x) { return x + x; }\n", True),
    ("template< // the key type\n    typename K >\nkernel void k(global K* a) {}\n", True),
    ("kernel void k(global int* a) {\n  int template_size = 4;\n  a[0] = template_size;\n}\n", False),
    ("#ifdef __cplusplus\ntemplate<\n  typename T>\nT id(T x) { return x; }\n#endif\n"
     "kernel void k(global int* a) { a[0] = 1; }\n", False),
    ("// template<\n//   typename T> is what the C++ build would say\nkernel void k(global int* a) { a[0] = 1; }\n",
     False),
]

HELD_OUT = [
    ("template<\n\ttypename T,\n\tint N>\nkernel void k(global T* a) { a[0] = N; }\n", True),
    ("template\n<typename T>\nvoid f(T x) {}\n", True),
    ("typedef struct template_t {\n  int a;\n} template_t;\nkernel void k(global template_t* t) { t->a = 1; }\n",
     False),
]


@pytest.mark.parametrize(("text", "cxx"), TUNE)
def test_template_heads_over_lines_tune(text: str, cxx: bool) -> None:
    reason = not_opencl_reason(text.encode())
    assert (reason == "C++ source") is cxx, reason


@pytest.mark.parametrize(("text", "cxx"), HELD_OUT)
def test_template_heads_over_lines_held_out(text: str, cxx: bool) -> None:
    reason = not_opencl_reason(text.encode())
    assert (reason == "C++ source") is cxx, reason
