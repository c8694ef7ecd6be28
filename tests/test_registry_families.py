"""Rule families imported by selection (issue 32, session 14): the registry's table of each
module's codes is the modules' own, `select` gives what selecting from every rule gives, and a
run that selects one family imports no other family's module."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

from cllint.analysis import registry
from cllint.analysis.rules.base import Group

SELECTIONS = [
    (None, None, None, False), (["CL21"], None, None, False), (["CL2"], ["CL203"], None, False),
    (["CL1", "CL0"], None, None, False), (None, ["CL1", "CL2"], None, False), (["CL"], ["CL"], ["CL210"], False),
    (["CL3"], None, None, True), (["CL099"], None, None, False), (["CL9"], None, ["CL001"], False),
    (["CL60"], ["CL603"], None, False), (["CL005"], None, None, False), (["CL4", "CL40"], ["CL4"], None, False),
]


def test_the_table_names_each_modules_codes() -> None:
    assert list(registry.FAMILY_CODES) == registry.RULE_MODULES
    for name in registry.RULE_MODULES:
        try:
            module = importlib.import_module(f"cllint.analysis.rules.{name}")
        except ModuleNotFoundError:
            assert registry.FAMILY_CODES[name] == ()
            continue
        assert sorted(r.code for r in getattr(module, "RULES", ())) == sorted(registry.FAMILY_CODES[name]), name


def _reference(select, ignore, extend, preview):  # noqa: ANN001, ANN202 - the selection over every rule
    chosen = [s.upper() for s in (select if select is not None else ["CL"])] + [s.upper() for s in extend or []]
    ignored = [s.upper() for s in ignore or []]
    out = []
    for code, rule in registry.all_rules().items():
        if rule.group is Group.REMOVED or (rule.group is Group.PREVIEW and not preview and code not in chosen):
            continue
        sel = max((len(s) for s in chosen if code.startswith(s)), default=-1)
        ign = max((len(s) for s in ignored if code.startswith(s)), default=-1)
        if sel >= 0 and sel > ign:
            out.append(rule)
    return out


@pytest.mark.parametrize("args", SELECTIONS)
def test_a_selection_is_what_selecting_from_every_rule_gives(args) -> None:  # noqa: ANN001
    assert registry.select(*args) == _reference(*args)


@pytest.mark.parametrize("selector,valid", [("CL21", True), ("CL", True), ("CL118", True), ("CL119", False),
                                            ("CL7", False), ("CL0", True), ("X1", False), ("CL2100", False)])
def test_selectors_are_checked_against_the_table(selector: str, valid: bool) -> None:
    assert registry.is_valid_selector(selector) is valid


def test_a_race_only_run_imports_no_other_family(tmp_path) -> None:  # noqa: ANN001
    kernel = tmp_path / "k.cl"
    kernel.write_text("__kernel void k(__global float *a, __local float *t) {\n  t[0] = a[0];\n"
                      "  a[get_global_id(0)] = t[1];\n}\n")
    probe = ("import sys; from cllint.cli.main import main; main(['check', '--no-cache', '--select', 'CL21', "
             f"'--format', 'json', {str(kernel)!r}]); "
             "print(sorted(m.rsplit('.', 1)[1] for m in sys.modules if m.startswith('cllint.analysis.rules.')))")
    got = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, cwd=tmp_path, check=False)
    families = eval(got.stdout.strip().splitlines()[-1])  # noqa: S307 - our own printed list
    assert "races" in families
    assert not {"address_space", "semantic", "features", "barriers", "restrictions", "device"} & set(families)
    assert "CL210" in got.stdout.split("[", 1)[1] or '"CL21' in got.stdout
