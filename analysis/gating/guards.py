"""Whether the preprocessor guards around a use imply what it needs; mode; guard spelling."""

from __future__ import annotations

from typing import Any

from ..database import current
from ..features import DNF, FEATURES, V2_0, Version, is_feature, version_requirement
from ..preprocessor import build_view
from ..preprocessor.expr import VERSION_MACRO, Condition, conj
from ..preprocessor.view import PreprocessorView
from . import assertions, tables

def preprocessor_view(ctx: Any) -> PreprocessorView | None:
    """The lint driver's view, or one built here (memoised in the database's "gating.views"
    on what builds it: the file, its text and the target; not on `id(ctx.tree)`, which a
    freed tree hands to the next one)."""
    if ctx.preprocessor is not None:
        assertions.find(ctx.preprocessor, ctx.source)
        return ctx.preprocessor
    key = (ctx.file, ctx.target.describe(), ctx.source)
    views = current().table("gating.views", 1)
    view = views.get(key)
    if view is None:
        try:
            view = build_view(ctx.file, ctx.source, target=ctx.target)
        except (RecursionError, ValueError):
            return None
        views.put(key, view)
    assertions.find(view, ctx.source)
    return view


def is_target_mode(ctx: Any) -> bool:
    """Target mode when asked for (`options["mode"]`), or when a target other than the default is set."""
    mode = (ctx.options or {}).get("mode")
    if mode in ("target", "portability"):
        return mode == "target"
    return ctx.target.describe() != "CL1.2"


# Feature macros are predefined from OpenCL C 2.0 on only: a guard on one implies 2.0.
_FEATURE_MACROS = frozenset(FEATURES)


def _guards(view: PreprocessorView, offset: int) -> tuple[Condition, ...]:
    """The enclosing arms' conditions, with what the assertions before `offset` let the
    build assume (`#ifndef X` / `#error` / `#endif`): each alone, and all together."""
    branch = view.branch_at(offset)
    conds = [*(branch.conditions if branch.parent is not None else ()), *assertions.in_effect(view, offset)]
    if len(conds) > 1:
        conds.insert(0, Condition(conj(c.node for c in conds)))
    return tuple(conds)


def _implies_any(view: PreprocessorView, offset: int, names: frozenset[str] | set[str]) -> bool:
    # (a branch taken only on an OpenCL 2.1 or 2.2 device has the sub-group built-ins too)
    also = _device_2_1_or_2_2 if names & _CORE_IN_2_1 else None
    return any(c.implies_any_defined(names, also) for c in _guards(view, offset))


# OpenCL 2.1 and 2.2 made sub-groups core ("The cl_khr_subgroups extension was promoted to
# OpenCL C 2.1"; OpenCL C 3.0 made them optional again): a branch taken only where the device's
# `__OPENCL_VERSION__` is from 210 to below 300 has them (GROMACS tests that beside the
# extension macros).
_DEVICE_VERSION = "__OPENCL_VERSION__"
_CORE_IN_2_1 = frozenset({"cl_khr_subgroups", "__opencl_c_subgroups"})


def _device_2_1_or_2_2(term) -> bool:  # noqa: ANN001 - a Term of literals
    low, high = 0, 1 << 30  # the versions the term allows: [low, high)
    for lit in term:
        if lit[0] == "cmp" and lit[1] == _DEVICE_VERSION:
            op, value = lit[2], lit[3]
            if op in (">", ">=", "=="):
                low = max(low, value + (op == ">"))
            if op in ("<", "<=", "=="):
                high = min(high, value + (op != "<"))
    return low >= 210 and high <= 300


def _min_version(view: PreprocessorView, offset: int) -> int | None:
    found = None
    for c in _guards(view, offset):
        v = c.implied_min_version()
        if v is not None and (found is None or v > found):
            found = v
    return found


def asserted(view: PreprocessorView | None, offset: int, names: frozenset[str] | set[str]) -> bool:
    """An assertion before `offset` implies one of `names` (in target mode, the file is then
    not built where they are missing: its `#error` says so, not each use)."""
    return view is not None and any(c.implies_any_defined(names) for c in assertions.in_effect(view, offset))


def _version_guarded(view: PreprocessorView, offset: int, floor: Version) -> bool:
    v = _min_version(view, offset)
    if v is not None and v >= floor.number:
        return True
    return floor <= V2_0 and _implies_any(view, offset, _FEATURE_MACROS)


def _name_guarded(view: PreprocessorView, offset: int, name: str) -> bool:
    floor = version_requirement(name)
    if floor is not None:  # a version alternative (`__OPENCL_C_VERSION__>=200`)
        return _version_guarded(view, offset, floor)
    if _implies_any(view, offset, tables.implied_by(name)):
        return True
    if tables.mandatory_in_2_0(name):
        # Mandatory in 2.0 only: OpenCL C 3.0 made it optional again (spec 6.2.1), so a
        # version test implies it when it also keeps 3.0 out (`>= 200 && < 300`).
        v = _min_version(view, offset)
        if v is not None and v >= 200 and _below_3_0(view, offset):
            return True
    return False


def _bounded_below_3_0(term) -> bool:
    for lit in term:
        if lit[0] == "cmp" and lit[1] == VERSION_MACRO:
            op, value = lit[2], lit[3]
            if (op == "<" and value <= 300) or (op in ("<=", "==") and value < 300):
                return True
    return False


def _below_3_0(view: PreprocessorView, offset: int) -> bool:
    """Whether the guards at `offset` keep `__OPENCL_C_VERSION__` below 300."""
    branch = view.branch_at(offset)
    if branch.parent is None:
        return False
    for condition in (branch.combined, *branch.conditions):
        terms = condition.terms()
        if terms and all(_bounded_below_3_0(t) for t in terms):
            return True
    return False


def is_guarded(view: PreprocessorView | None, offset: int, requires: DNF) -> bool:
    """Some alternative of `requires` is implied by the guards at `offset`."""
    if view is None:
        return False
    if any(all(_name_guarded(view, offset, n) for n in alt) for alt in requires):
        return True
    # `#if defined(cl_khr_subgroups) || defined(__opencl_c_subgroups)`: no alternative holds
    # alone, but every way into the branch defines one of them.
    if len(requires) > 1 and all(len(alt) == 1 and version_requirement(alt[0]) is None for alt in requires):
        implied = frozenset().union(*(tables.implied_by(alt[0]) for alt in requires))
        return _implies_any(view, offset, implied)
    return False


def dead_code(view: PreprocessorView | None, offset: int) -> bool:
    """Inside `#if 0` or another arm that is false whatever the target: false by clang-19's
    own macros (`#if __clang_major__ < 10`), or contradicted by an assertion before it
    (`#ifndef X` after `#ifndef X` / `#error` / `#endif`)."""
    if view is None:
        return False
    conds = view.conditions_at(offset)
    if conds:  # (clang_decided loads clang-19's macros: only for code under a condition)
        from .clang_decided import decided_false

        if any(c.is_constant() is False or decided_false(c) for c in conds):
            return True
    held = assertions.in_effect(view, offset)
    if not held or not conds:
        return False
    return Condition(conj(c.node for c in (*conds, *held))).terms() == []


def _need(name: str) -> str:
    """"feature '__opencl_c_fp64'", "extension 'cl_khr_fp64'", "OpenCL C 2.0 or newer"."""
    floor = version_requirement(name)
    if floor is not None:
        return f"OpenCL C {floor} or newer"
    return f"{'feature' if is_feature(name) else 'extension'} '{name}'"


# The guard to write for images: `__opencl_c_images` exists only in OpenCL C 3.0 builds, and a
# host that passes no `-cl-std` builds as 1.x (spec, `__OPENCL_C_VERSION__`), where a kernel
# under `#ifdef __opencl_c_images` would vanish on every device. `__IMAGE_SUPPORT__` is defined
# wherever images are supported, in every version (spec, predefined macros).
_WRITTEN = {"__opencl_c_images": "__IMAGE_SUPPORT__"}


def _test(name: str) -> str:
    """The preprocessor test of a name: 'defined(X)', or '__OPENCL_C_VERSION__ >= 200'."""
    floor = version_requirement(name)
    return f"defined({_WRITTEN.get(name, name)})" if floor is None else f"__OPENCL_C_VERSION__ >= {floor.number}"


def needs_text(requires: DNF) -> str:
    """"feature '__opencl_c_fp64' or extension 'cl_khr_fp64'"."""
    alts = [" and ".join(_need(n) for n in alt) for alt in requires]
    return " or ".join(alts)


def names_text(requires: DNF) -> str:
    """"'__opencl_c_fp64' or 'cl_khr_fp64'"; a version floor as its test."""
    def spelled(n: str) -> str:
        return _WRITTEN.get(n, n) if version_requirement(n) is None else _test(n)
    return " or ".join(" and ".join(f"'{spelled(n)}'" for n in alt) for alt in requires)


def guard_text(requires: DNF) -> str:
    """The directive that opens a guard: '#ifdef X' or '#if defined(a) || defined(b)'."""
    if len(requires) == 1 and len(requires[0]) == 1 and version_requirement(requires[0][0]) is None:
        return f"#ifdef {_WRITTEN.get(requires[0][0], requires[0][0])}"
    alts = [" && ".join(_test(n) for n in alt) for alt in requires]
    if len(alts) > 1:
        alts = [f"({a})" if "&&" in a else a for a in alts]
    return "#if " + " || ".join(alts)
