"""Portability mode at a known OpenCL C version (issue 30: `--std S` alone, a program's `-cl-std`).

The source says which language it is written in, not which device runs it. So the version's
mandatory features are present (2.0's generic address space, 1.1's int32 atomics), every
optional one still needs a guard, and what the version alone decides is decided: an arm no
device of the version compiles (`#if __OPENCL_C_VERSION__ >= 200` under 1.2) is not checked,
and a built-in newer than the version is an error whatever the device (CL303).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from ..features import CORE_2_0, DNF, EXTENSIONS, FEATURES, V2_0, Version
from ..preprocessor.expr import _CMP
from ..target import Target


def known_version(ctx: Any) -> Version | None:
    """The version portability mode checks against, or None (target mode, or any version)."""
    std = (ctx.options or {}).get("std")
    return ctx.target.version if std else None


@cache
def mandatory(version: Version) -> Target:
    """A device of `version` with nothing optional: what every compiler of it provides
    (full profile: 64-bit integers are mandatory there, spec 6.2.1)."""
    return Target.preset(version.std).apply_overrides("-all")


def macro_facts(target: Target) -> tuple[dict[str, str], frozenset[str]]:
    """What every device of the target's version predefines (name -> value), and the
    feature and extension macros a device of that version may or may not define."""
    v = target.version
    possible = set(EXTENSIONS)
    if v.major >= 2:
        possible |= {name for name, info in FEATURES.items() if info.since <= v}
    mandatory_names = {name for name, e in EXTENSIONS.items() if e.core_since and not e.requires and e.core_since <= v}
    if v == V2_0:
        mandatory_names |= CORE_2_0
    fixed = {n: text for n, text in target.predefined_macros().items()
             if n not in FEATURES and n not in EXTENSIONS and n != "__IMAGE_SUPPORT__"}
    fixed.update((n, "1") for n in mandatory_names)
    return fixed, frozenset(possible - mandatory_names) | {"__IMAGE_SUPPORT__"}


def never_true(condition: Any, fixed: dict[str, str], optional: frozenset[str]) -> bool:
    """No device of the version makes `condition` true: every term of its DNF contradicts
    what the version fixes. Optional macros may be defined or not; names that are neither
    fixed nor optional feature/extension names (user macros) may be anything."""
    terms = condition.terms()
    if terms is None:
        return False
    known = set(FEATURES) | set(EXTENSIONS)

    def holds(lit: tuple[Any, ...]) -> bool:
        kind, name = lit[0], lit[1]
        if kind == "opaque" or name in optional or (name not in fixed and name not in known):
            return True
        value = fixed.get(name)
        if kind == "def":
            return (value is not None) == lit[2]
        try:
            number = int(value) if value is not None else 0
        except ValueError:
            return True
        return _CMP[lit[2]](number, lit[3])

    return not any(all(holds(lit) for lit in term) for term in terms)


class VersionFacts:
    """What a known version decides, for one rule run (answers memoised per arm)."""

    def __init__(self, version: Version) -> None:
        self.version = version
        self.base = mandatory(version)
        self._fixed, self._optional = macro_facts(self.base)
        self._dead: dict[int, bool] = {}

    def provides(self, requires: DNF) -> bool:
        """Every device of the version meets `requires` (a mandatory feature, a version floor)."""
        return bool(requires) and self.base.satisfies(None, requires)

    def never_compiled(self, view: Any, offset: int) -> bool:
        """`offset` lies in an arm no device of the version compiles."""
        if view is None:
            return False
        branch = view.branch_at(offset)
        key = id(branch)
        if key not in self._dead:
            self._dead[key] = any(never_true(c, self._fixed, self._optional) for c in branch.conditions)
        return self._dead[key]

    def never_compiled_use(self, view: Any, use: Any) -> bool:
        """A use, or the `#define` that spells it through a macro, in such an arm."""
        return any(self.never_compiled(view, at) for at in (use.start, use.defined_at) if at is not None)

    def newer(self, since: Version | None) -> bool:
        return since is not None and self.version < since


def version_facts(ctx: Any) -> VersionFacts | None:
    """The facts of portability mode's known version, or None."""
    version = known_version(ctx)
    return VersionFacts(version) if version is not None else None


__all__ = ["VersionFacts", "known_version", "macro_facts", "mandatory", "never_true", "version_facts"]
