"""Struct and union fields declared under `#if` (issue 29: ROCm's device library declares
`num_nonslab_allocations` in `heap_t` under `#if defined NON_SLAB_TRACKING`, defined above): a
member any arm declares may be the build's, so using it is no "no member named" (CL017). A
name no arm declares is still reported.

Cases in HELD_OUT were written beside the others and first run once the code was done."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fixture_lint import CLANG, clang, reports  # noqa: E402


CASES = {
    "defined_arm": ("#define T 1\ntypedef struct heap_s {\n  ulong a;\n#if defined(T)\n  ulong c;\n#endif\n} heap_t;\n"
                    "kernel void k(global heap_t *h) { h->c = 1; }\n", []),
    "ifdef_host_choice": ("typedef struct heap_s {\n  ulong a;\n#ifdef T\n  ulong c;\n#endif\n} heap_t;\n"
                          "kernel void k(global heap_t *h) {\n#ifdef T\n  h->c = 1;\n#endif\n}\n", []),
    "anonymous_typedef": ("#define T 1\ntypedef struct {\n  ulong a;\n#if defined(T)\n  ulong c;\n#endif\n} s_t;\n"
                          "kernel void k(global s_t *h) { h->c = 1; }\n", []),
    "in_no_arm": ("#define T 1\nstruct s {\n  ulong a;\n#if defined(T)\n  ulong c;\n#endif\n};\n"
                  "kernel void k(global struct s *h) { h->d = 1; }\n", ["CL017"]),
}
HELD_OUT = {
    "nested_arms": ("#define T 1\ntypedef struct {\n  ulong a;\n#if defined T\n#if PAD > 1\n  ulong pad[PAD - 1];\n"
                    "#endif\n  ulong count;\n#endif\n} heap_t;\nkernel void k(global heap_t *h) { h->count = 1; }\n", []),
    "else_arm": ("#define WIDE 0\nstruct v {\n#if WIDE\n  float4 x;\n#else\n  float x;\n  float y;\n#endif\n};\n"
                 "kernel void k(global struct v *p) { p->y = p->x; }\n", []),
    "union_arm": ("#define BITS 1\nunion u {\n  uint w;\n#if BITS\n  uchar b[4];\n#endif\n};\n"
                  "kernel void k(global union u *p) { p->b[0] = 1; }\n", []),
}


def _codes(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "k.cl"
    path.write_text(text)
    found = reports(path)
    return sorted(d["code"] for d in found if d["severity"] == "error")


@pytest.mark.parametrize("name", sorted(CASES))
def test_tune(name: str, tmp_path: Path) -> None:
    text, expected = CASES[name]
    assert _codes(tmp_path, text) == expected


@pytest.mark.parametrize("name", sorted(HELD_OUT))
def test_held_out(name: str, tmp_path: Path) -> None:
    text, expected = HELD_OUT[name]
    assert _codes(tmp_path, text) == expected


@pytest.mark.skipif(CLANG is None, reason="clang-19 labels the cases")
@pytest.mark.parametrize("name", sorted({**CASES, **HELD_OUT}))
def test_clang_labels(name: str, tmp_path: Path) -> None:
    text, expected = {**CASES, **HELD_OUT}[name]
    path = tmp_path / "k.cl"
    path.write_text(text)
    r = clang(path, "-DT")
    assert (r.returncode == 0) == (not expected), r.stderr
