"""Held-out cases of test_redefinitions_prefilter.py (crc32 of the name % 3 == 0, chosen before
the code)."""

from __future__ import annotations

from cllint.analysis.db import Host
from cllint.analysis.lint import LintOptions

OPTIONS = LintOptions(select=("CL018",))


def _lint(src: bytes) -> list[tuple[str, int]]:
    host = Host(OPTIONS)
    host.set_file("k.cl", src)
    return [(d.code, d.span.start) for d in host.snapshot().diagnostics("k.cl")]


def test_redefinition_in_one_arm_reported() -> None:
    src = b"float a(float x) { return x; }\nfloat b(float x) { return x; }\nfloat a(float y) { return y; }\n"
    assert _lint(src) == [("CL018", src.rindex(b"a("))]


def test_redefinition_in_two_arms_quiet() -> None:
    src = b"#ifdef FAST\nfloat a(float x) { return x; }\n#else\nfloat a(float x) { return x * 2.0f; }\n#endif\n" \
          b"float a2(float x) { return x; }\n"
    assert _lint(src) == []
