"""The OpenCL C version a host builds a source at: a literal `-cl-std=CLx.y` in its build
options (issue 29).

`build_program(context, "walk.cl", "-cl-std=CL2.0")`, `clBuildProgram(p, 1, &d, "-cl-std=CL2.0",
...)` after reading `reduce.cl`, pyopencl's `.build(options=["-cl-std=CL2.0"])`: the source is
OpenCL C 2.0 (generic pointers, function-scope `static`), and judged so. Rust's `opencl3` crate
names the option as a constant (`CL_STD_2_0` is `"-cl-std=CL2.0 "`), read as the literal. The
option belongs to the sources its statement names, else to the one source its host file names
and builds with its one build call. A source two hosts build at different versions keeps none
(it must compile at each). Computed versions (`"-cl-std=CL" + version`) say nothing.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from cllint.analysis.lazy_re import lazy

from .hosts import HOST_NAMES, _kernel_refs

_STD = lazy(rb"-cl-std=(CL[0-9]\.[0-9])(?![\w.])|\bCL_STD_([0-9])_([0-9])\b")
_STATEMENT_END = lazy(rb"[;{}]")
# The calls that build a program: a file with one of them builds one program (or one kind).
# Also through a checking macro that takes the function first: `OCL_CALL (clBuildProgram, p, ...)`.
_BUILD_CALL = lazy(rb"\b(?:clBuildProgram|clCompileProgram|build_program\w*|create_and_build_from_sources?)\s*\("
                   rb"|\.(?:build|Build)\s*\(|\(\s*(?:clBuildProgram|clCompileProgram)\s*,")
_MAX_STATEMENT = 400  # bytes either side of the option


def _statement(text: bytes, at: int) -> tuple[int, int]:
    """The statement around `at`: from the last `;`, `{` or `}` before it to the next `;`."""
    lo = max(0, at - _MAX_STATEMENT)
    before = [m.end() for m in _STATEMENT_END.finditer(text, lo, at)]
    end = text.find(b";", at, at + _MAX_STATEMENT)
    return (before[-1] if before else lo), (end if end >= 0 else min(len(text), at + _MAX_STATEMENT))


def host_stds(hosts: dict[Path, bytes], sources: Iterable[Path], choices: Iterable[str]) -> dict[Path, str]:
    """Per source, the `-cl-std` version its hosts build it at (one of `choices`)."""
    by_stem: dict[str, list[Path]] = {}
    for p in sources:
        by_stem.setdefault(p.stem, []).append(p)
    allowed = set(choices)
    found: dict[str, set[str]] = {}
    for path in sorted(hosts):
        text = hosts[path]
        if b"-cl-std=CL" not in text and b"CL_STD_" not in text:
            continue
        if path.name in HOST_NAMES or path.suffix.lower() == ".cmake":
            continue  # a build file's options are its commands' (cmake_options.py)
        # a file's name (`walk.cl`), not a symbol that ends like one (`common_cl.hh`, `k_cl_src`)
        refs = [(stem, start) for stem, start, _ in _kernel_refs(text)
                if stem in by_stem and text[start + len(stem):start + len(stem) + 1] == b"."]
        # the one source a host builds once: the option is its (a file of several builds, of
        # strings or of other sources, says nothing about which)
        named_in_file = {stem for stem, _ in refs}
        alone = len(named_in_file) == 1 and len(_BUILD_CALL.findall(text)) == 1
        for m in _STD.finditer(text):
            std = m.group(1).decode() if m.group(1) else f"CL{m.group(2).decode()}.{m.group(3).decode()}"
            if std not in allowed:
                continue
            lo, hi = _statement(text, m.start())
            named = {stem for stem, start in refs if lo <= start < hi}
            if not named and alone:
                named = named_in_file
            for stem in named:
                found.setdefault(stem, set()).add(std)
    return {by_stem[stem][0]: stds.pop() for stem, stds in found.items()
            if len(stds) == 1 and len(by_stem[stem]) == 1}
