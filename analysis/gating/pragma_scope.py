"""Where a `#pragma OPENCL EXTENSION name : enable` is in force for the code at an offset.

Shared by CL309 (a use of `half` that needs the pragma) and CL118 (a `half` value passed or
returned): both ask whether the pragma applies wherever the code is compiled, which includes a
pragma under `#ifdef cl_khr_fp16` (PoCL's force-included `_enable_all_exts.h`), since where
the extension is missing CL301/CL302 report the use itself."""

from __future__ import annotations


def enabled_where_compiled(view, offset: int, ext: str) -> bool:  # noqa: ANN001 - a preprocessor view
    """An enabling pragma is in effect wherever the code at `offset` is compiled: it sits in
    an enclosing arm, or in an arm taken whenever the extension exists (`#ifdef cl_khr_fp16`
    around the pragma)."""
    ancestors = view.branch_at(offset).ancestor_ids
    for p in reversed(view.pragmas):
        if p.offset > offset or p.name not in (ext, "all") or not _reaches(p.branch, ancestors, ext):
            continue
        return p.behavior != "disable"
    return False


def _reaches(branch, ancestors: frozenset[int], ext: str) -> bool:  # noqa: ANN001
    """Every arm between `branch` and an enclosing arm of the use is active for the target,
    or is taken whenever `ext` is defined (its condition tests `ext` alone)."""
    b = branch
    while b is not None and id(b) not in ancestors:
        if b.active is not True and not _tests_only(b.own, ext):
            return False
        b = b.parent
    return b is not None


def _tests_only(condition, ext: str) -> bool:  # noqa: ANN001
    """`defined(ext)` or `ext`, as the whole condition."""
    terms = condition.terms()
    return terms is not None and len(terms) == 1 and all(lit[1] == ext and lit[0] != "opaque" and
                                                         (lit[0] != "def" or lit[2]) for lit in terms[0])
