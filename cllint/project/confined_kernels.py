"""Kernel objects a C host function keeps to itself (issue 31 and 29, beignet's device
self-test): `cl_kernel k = clCreateKernel(p, "self_test", ...)` declared in the function,
launched there and released, never returned, stored or passed on. A launch elsewhere of a
kernel object launches.py cannot tell (a harness's global `kernel`) cannot be this one, so it
does not void what the function's own launches show (launches.py's precision rule).

Precision first: the variable must be declared in the body that creates it, and every other
mention of it must be one of: its declaration, the creating assignment, the kernel argument of
`clSetKernelArg`, `clGetKernel*Info`, `clReleaseKernel`, `clEnqueueNDRangeKernel` or
`clEnqueueTask`, or a null test (`!k`, `k == NULL`). And the kernel's name, as a string literal,
must appear in the workspace's host code at confined creations only (a harness that makes the
same kernel by name elsewhere may launch it wide).

A runtime's loader that writes the kernel through its first argument is a creation too
(StarPU's `starpu_opencl_load_kernel(&kernel, &queue, &program, "name", dev)`), and its
release function a release (`starpu_opencl_release_kernel(kernel)`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from cllint.analysis.lazy_re import lazy

_C_CREATE = lazy(rb"([A-Za-z_]\w*)\s*=\s*clCreateKernel\s*\(\s*[^,;()]+,\s*\"([A-Za-z_]\w*)\"")
# A runtime's loader that writes the kernel it makes through its first argument (`f(&kernel,
# ..., "name", ...)`, launches.py reads its arguments from here), and with the kernel's name a
# later argument.
LOADER_CALL = lazy(rb"\b\w*[Kk]ernel\w*\s*\(\s*&\s*([A-Za-z_]\w*)\s*,")
_C_LOAD = lazy(LOADER_CALL.pattern + rb"[^;{}]*?\"([A-Za-z_]\w*)\"")
# What may come right before a mention of the kernel variable: its declaration, the kernel
# argument of a call that only reads or releases it, or a launch's kernel argument.
_ALLOWED_BEFORE = lazy(rb"(?:\bcl_kernel|\bclSetKernelArg\s*\(|\bclReleaseKernel\s*\(|\bclGetKernel\w*Info\s*\("
                       rb"|\b\w*_release_kernel\s*\(|\b\w*[Kk]ernel\w*\s*\(\s*&"
                       rb"|\bclEnqueue(?:NDRangeKernel|Task)\s*\(\s*[\w.>-]+\s*,|!)\s*\Z")
_CREATE_AFTER = lazy(rb"\A\s*=\s*clCreateKernel\s*\(")
_NULL_TEST_AFTER = lazy(rb"\A\s*(?:==|!=)\s*(?:NULL|0|nullptr)\b")
_LOOKBACK = 80


_TOKENS = lazy(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?(?:\*/|\Z)|[{}]', re.S)


def _bodies(text: bytes) -> list[tuple[int, int]]:
    """The spans of the top-level brace blocks (function bodies), string literals, character
    literals and comments skipped (one regex pass: host files run to megabytes)."""
    out: list[tuple[int, int]] = []
    depth, start = 0, 0
    for m in _TOKENS.finditer(text):
        c = m.group()
        if c == b"{":
            if depth == 0:
                start = m.start()
            depth += 1
        elif c == b"}" and depth > 0:
            depth -= 1
            if depth == 0:
                out.append((start, m.end()))
    return out


def _kept(text: bytes, var: bytes, body: tuple[int, int], create: int) -> bool:
    """Whether `var`, created at `create` inside `body`, is declared there and mentioned only
    in the allowed places."""
    lo, hi = body
    if re.search(rb"\bcl_kernel\s+(?:\w+\s*,\s*)*" + re.escape(var) + rb"\b", text[lo:create]) is None:
        return False  # a global, a parameter, a field: others may launch it
    for m in re.compile(rb"(?<![\w.>])" + re.escape(var) + rb"\b").finditer(text, lo, hi):
        before = text[max(lo, m.start() - _LOOKBACK):m.start()]
        after = text[m.end():m.end() + _LOOKBACK]
        if _ALLOWED_BEFORE.search(before) or _CREATE_AFTER.match(after) or _NULL_TEST_AFTER.match(after):
            continue
        return False  # returned, stored, passed on
    return True


def confined_kernels(hosts: Iterable[bytes]) -> frozenset[str]:
    """Names of kernels every creation of which a C host function keeps to itself, and whose
    name no other string literal of the host code mentions."""
    texts = list(hosts)
    kept: dict[str, int] = {}  # name -> its confined creations
    loose: set[str] = set()
    for text in texts:
        if b"clCreateKernel" not in text and b"&" not in text:
            continue
        bodies: list[tuple[int, int]] | None = None
        # (each pattern only where its call is written: `_C_CREATE` has no word boundary to
        # start from, and a host's long words, a hex table's, cost it quadratic time)
        creations = [*(_C_CREATE.finditer(text) if b"clCreateKernel" in text else ()),
                     *(_C_LOAD.finditer(text) if b"ernel" in text else ())]
        for m in creations:
            if bodies is None:
                bodies = _bodies(text)
            name = m.group(2).decode()
            body = next((b for b in bodies if b[0] <= m.start() < b[1]), None)
            if body is not None and _kept(text, m.group(1), body, m.end(1)):
                kept[name] = kept.get(name, 0) + 1
            else:
                loose.add(name)
    out = set(kept) - loose
    for name in list(out):
        quoted = b'"' + name.encode() + b'"'
        if sum(t.count(quoted) for t in texts) != kept[name]:
            out.discard(name)  # made or named elsewhere too (a harness's table, a macro's argument)
    return frozenset(out)
