"""Conditions only another language's compiler passes: C++, CUDA, HIP, Objective-C.

clang-19 defines none of these names for OpenCL C, and no host passes them with `-D` (they are
reserved), so a group that tests one is never compiled as OpenCL C. Dual-language sources put
code there that is not C (`template <...>` before a head, operator overloads, `extern "C" {`,
shims that overload a built-in). The grammar's scanner skips such a first branch as it skips
`#if 0` (its own copy of the names, `FOREIGN_NAMES` in grammar/src/scanner.c), the workspace
index drops it, and clang-decided gating reads the names as 0.
"""

from __future__ import annotations

import re

from cllint.analysis.lazy_re import lazy

NOT_OPENCL_C = frozenset({
    "__cplusplus", "__CUDACC__", "__CUDACC_RTC__", "__CUDA_ARCH__", "__NVCC__", "__HIPCC__", "__HIP__",
    "__HIP_DEVICE_COMPILE__", "__OPENCL_CPP_VERSION__", "__cplusplus_cli", "__OBJC__",
})

_DEFINED_BARE = lazy(r"\bdefined\s+([A-Za-z_]\w*)")
_GROUP_OPEN = lazy(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b([^\n]*)", re.M)


def foreign_condition(kind: str, condition: str) -> bool:
    """Whether `#kind condition` opens a group false for every OpenCL C build: `#ifdef X`,
    `#if defined(X)`, `#if X`, or a conjunction (`&&` at the top level) with such a term.
    A disjunction is never: another of its terms may hold."""
    if kind == "ifdef":
        return condition.strip() in NOT_OPENCL_C
    if kind != "if" or "|" in condition:
        return False
    text = "".join(_DEFINED_BARE.sub(r"defined(\1)", condition).split())
    return any(_tests_foreign(term) for term in _top_level_terms(text))


def _top_level_terms(text: str) -> list[str]:
    terms, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        depth += (c == "(") - (c == ")")
        if depth == 0 and text.startswith("&&", i):
            terms.append(text[start:i])
            start = i = i + 2
            continue
        i += 1
    terms.append(text[start:])
    return terms


def _tests_foreign(term: str) -> bool:
    while len(term) >= 2 and term[0] == "(" and term[-1] == ")" and _closes_at_end(term):
        term = term[1:-1]
    if term.startswith("defined(") and term.endswith(")"):
        term = term[8:-1]
    return term in NOT_OPENCL_C


def _closes_at_end(term: str) -> bool:
    depth = 0
    for i, c in enumerate(term):
        depth += (c == "(") - (c == ")")
        if depth == 0:
            return i == len(term) - 1
    return False


def without_foreign_arms(text: str) -> str:
    """`text` with the lines of every branch that tests a foreign name emptied (line count
    kept): the branch a group opens with such a test, up to its `#elif`, `#else` or `#endif`."""
    if not any(name in text for name in NOT_OPENCL_C):
        return text
    lines = text.split("\n")
    dropping: list[bool] = []  # per open group: whether its current branch is dropped
    for i, line in enumerate(lines):
        m = _GROUP_OPEN.match(line)
        inside = any(dropping)
        if m is not None:
            kind, rest = m.group(1), m.group(2)
            if kind in ("if", "ifdef", "ifndef"):
                dropping.append(foreign_condition(kind, rest))
            elif kind in ("elif", "else") and dropping:
                dropping[-1] = False
            elif kind == "endif" and dropping:
                dropping.pop()
        if inside or (m is not None and any(dropping)):
            lines[i] = ""
    return "\n".join(lines)
