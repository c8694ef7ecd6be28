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
    "semantic",
    "suppressions",
    "budget",
    "compiler",
    "device",
    "host",
]

# The codes each module's RULES define, so that a selection imports only the families it
# names (`--select CL21` needs none of the address-space or semantic modules) and a selector
# is checked without importing any. tests/test_registry_families.py holds it to the modules.
# A module missing here is imported for every selection.
FAMILY_CODES: dict[str, tuple[str, ...]] = {
    "syntax": ("CL001",),
    "preprocessing": ("CL002", "CL003", "CL004"),
    "program": ("CL006", "CL007"),
    "address_space": (
        "CL101", "CL102", "CL103", "CL104", "CL105", "CL106", "CL107", "CL108", "CL109", "CL110",
        "CL111", "CL112", "CL113", "CL114", "CL115", "CL116", "CL117", "CL118",
    ),
    "barriers": ("CL201", "CL202", "CL203", "CL204", "CL205"),
    "races": ("CL210", "CL211", "CL212"),
    "features": ("CL301", "CL302", "CL303", "CL304", "CL305", "CL306", "CL307", "CL308", "CL309"),
    "restrictions": ("CL401", "CL402", "CL403", "CL404", "CL405", "CL406", "CL407"),
    "semantic": (
        "CL005", "CL010", "CL011", "CL012", "CL013", "CL014", "CL015", "CL016", "CL017", "CL018",
        "CL019", "CL020", "CL021", "CL022", "CL023", "CL024", "CL025",
    ),
    "suppressions": ("CL090",),
    "budget": ("CL091",),
    "compiler": ("CL099",),
    "device": ("CL901", "CL902", "CL910", "CL911", "CL912", "CL913", "CL919", "CL920", "CL921"),
    "host": ("CL601", "CL602", "CL603", "CL604", "CL605"),
}

CODE_RE = lazy(r"^CL\d{1,3}$")


def _family(name: str) -> dict[str, type[Rule]]:
    try:
        module = importlib.import_module(f"cllint.analysis.rules.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"cllint.analysis.rules.{name}":
            return {}
        raise
    return {rule.code: rule for rule in getattr(module, "RULES", ())}


@cache
def all_rules() -> dict[str, type[Rule]]:
    rules: dict[str, type[Rule]] = {}
    for name in RULE_MODULES:
        for code, rule in _family(name).items():
            if code in rules:
                raise RuntimeError(f"duplicate rule code {code}")
            rules[code] = rule
    return dict(sorted(rules.items()))


def rule(code: str) -> type[Rule] | None:
    return all_rules().get(code.upper())


def is_valid_selector(selector: str) -> bool:
    """`CL`, `CL2`, `CL20`, `CL201`: a prefix of at least one known code, or a full code."""
    sel = selector.strip().upper()
    if not CODE_RE.match(sel) and sel != "CL":
        return False
    if any(code.startswith(sel) for codes in FAMILY_CODES.values() for code in codes):
        return True
    return any(code.startswith(sel) for code in all_rules())  # a family not in the table


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

    def selected(code: str) -> bool:
        sel = max((len(s) for s in chosen if code.startswith(s)), default=-1)
        ign = max((len(s) for s in ignored if code.startswith(s)), default=-1)
        return sel >= 0 and sel > ign

    # Only the families with a selected code are imported (all of them for the default).
    skipped = {name for name, codes in FAMILY_CODES.items() if codes and not any(selected(code) for code in codes)}
    if skipped:
        rules: dict[str, type[Rule]] = {}
        for name in RULE_MODULES:
            if name not in skipped:
                rules.update(_family(name))
        rules = dict(sorted(rules.items()))
    else:
        rules = all_rules()
    out = []
    for code, rule_cls in rules.items():
        if rule_cls.group is Group.REMOVED:
            continue
        if rule_cls.group is Group.PREVIEW and not preview and code not in chosen:
            continue
        if selected(code):
            out.append(rule_cls)
    return out
