"""The first-code patterns of `not_opencl_reason` are tried only where the first code starts as
they must (`static`/`const`, a raw string's `R"`, an upper-case word holding STRINGIFY), not
after a scan of the whole file for a word they need: the check runs on every keystroke (issue
32, session 15). Labels: what each file is, written for this test."""

from __future__ import annotations

import pytest

from cllint.analysis.source_kind import not_opencl_reason

# A code generator's template after a comment and a guard.
TEMPLATE = b"""/* generated */
#ifndef PURE_CL
static const char *src = "__kernel void k(__global float *a) { a[0] = 1.0f; }";
#endif
"""
# An ordinary kernel that names every word the first-code patterns need, after its first code.
ORDINARY = b"""__kernel void k(__global char *a) {
  // R"(x)" and MSTRINGIFY( are only text here; static const char *p = "x";
  a[0] = 'R';
}
"""
STRINGIFIED = b"""// the host includes this into a string
MSTRINGIFY(
__kernel void k(__global float *a) { a[0] = 1.0f; }
)
"""


@pytest.mark.parametrize(("text", "found"), [(TEMPLATE, "template"), (ORDINARY, None), (STRINGIFIED, "C string")])
def test_first_code_read_as_before(text: bytes, found: str | None) -> None:
    reason = not_opencl_reason(text)
    assert (reason is None) if found is None else (reason is not None and found in reason), reason
