"""Files named `.cl` written in a C++ kernel language (AMD's static C++ kernel language, OpenCL
C++): a class definition whose first member is an access specifier (`class Gen {` /
`protected:`) is C++, which no OpenCL C compiler reads (issue 29, item 4: one CL006 note, the
file skipped). A struct, or the word in comments, strings and names, is not. Written before the
change; the held-out third was run only once the code was done."""

from __future__ import annotations

import pytest

from cllint.analysis.source_kind import not_opencl_reason

TUNE = [
    ("class Gen\n{\nprotected:\n    uint seed;\npublic:\n    void next();\n};\n"
     "kernel void k(global uint *o) { o[0] = 1; }\n", True),
    ("class Box : public Base {\npublic:\n  float w;\n};\n", True),
    ("template <typename T>\nclass Pair\n{\n  private:\n    T a, b;\n};\n", True),
    ("/* this class of kernels\n   public: everyone */\nkernel void k(global int *a) { a[0] = 1; }\n", False),
    ("typedef struct { int public_count; } counts;\nkernel void k(global counts *c) { c->public_count = 0; }\n",
     False),
    ("#ifdef __cplusplus\nclass Gen {\npublic:\n  int x;\n};\n#endif\nkernel void k(global int *a) { a[0] = 1; }\n",
     False),
]

HELD_OUT = [
    ("class Sobel\n{\n\tprivate:\n\t\tint w;\n\tpublic:\n\t\tint h;\n};\n", True),
    ("kernel void k(global int *a) {\n  int class_id = a[0];\n  a[1] = class_id;\n}\n", False),
    ("class Acc : Base\n{\npublic:\n  float v;\n};\nkernel void k(global float *o) { o[0] = 0.0f; }\n", True),
]


@pytest.mark.parametrize(("text", "cxx"), TUNE)
def test_class_definitions_tune(text: str, cxx: bool) -> None:
    reason = not_opencl_reason(text.encode())
    assert (reason == "C++ source") is cxx, reason


@pytest.mark.parametrize(("text", "cxx"), HELD_OUT)
def test_class_definitions_held_out(text: str, cxx: bool) -> None:
    reason = not_opencl_reason(text.encode())
    assert (reason == "C++ source") is cxx, reason
