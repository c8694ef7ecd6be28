"""The one place where rule codes are assigned, and selection by code or prefix.

Codes never change meaning: a retired rule stays here with group REMOVED.
Families: CL0xx syntax and preprocessing, CL1xx address spaces, CL2xx barriers and
collectives, CL3xx feature/extension/version gating, CL4xx other correctness,
CL5xx performance and portability hints, CL9xx device compiler and runtime.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from functools import cache

from cllint.analysis.rules.base import Group, Rule
from cllint.analysis.lazy_re import lazy

# Modules under cllint.analysis.rules that define rules. A module not written yet is
# skipped, so families can land one at a time.
RULE_MODULES = [
    "syntax",
    "preprocessing",
    "program",
    "address_space",
    "barriers",
    "races",
    "features",
    "restrictions",
    "kernels",
    "semantic",
    "suppressions",
    "budget",
    "compiler",
    "device",
    "host",
]

CODE_RE = lazy(r"^CL\d{1,3}$")


@cache
def all_rules() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for name in RULE_MODULES:
        try:
            module = importlib.import_module(f"cllint.analysis.rules.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"cllint.analysis.rules.{name}":
                continue
            raise
        for rule in getattr(module, "RULES", ()):
            if rule.code in rules:
                raise RuntimeError(f"duplicate rule code {rule.code}")
            rules[rule.code] = rule
    return dict(sorted(rules.items()))


def rule(code: str) -> type[Rule] | None:
    return all_rules().get(code.upper())


def is_valid_selector(selector: str) -> bool:
    """`CL`, `CL2`, `CL20`, `CL201`: a prefix of at least one known code, or a full code."""
    sel = selector.strip().upper()
    if not CODE_RE.match(sel) and sel != "CL":
        return False
    return any(code.startswith(sel) for code in all_rules())


def select(
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    extend_select: Iterable[str] | None = None,
    preview: bool = False,
) -> list[type[Rule]]:
    """Rules enabled by ruff-style selection: the longest matching prefix wins.

    Preview rules are opt-in, as in ruff: a prefix (`CL3`, the default `CL`) selects them
    only with `preview`; naming a preview rule's full code selects it either way.
    """
    chosen = [s.upper() for s in (select if select is not None else ["CL"])]
    chosen += [s.upper() for s in (extend_select or [])]
    ignored = [s.upper() for s in (ignore or [])]
    out = []
    for code, rule_cls in all_rules().items():
        if rule_cls.group is Group.REMOVED:
            continue
        if rule_cls.group is Group.PREVIEW and not preview and code not in chosen:
            continue
        sel = max((len(s) for s in chosen if code.startswith(s)), default=-1)
        ign = max((len(s) for s in ignored if code.startswith(s)), default=-1)
        if sel >= 0 and sel > ign:
            out.append(rule_cls)
    return out
