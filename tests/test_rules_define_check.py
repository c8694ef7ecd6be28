"""`Rule` is a plain base class, not an `abc.ABC` (issue 32, session 19: ~100 rule classes are
made at every start-up, and ABCMeta's bookkeeping was 0.8% of a one-line kernel's run). What
the abstract method enforced is held here instead: every registered rule writes its own
`check`, and one that does not fails at its first call, naming itself."""

from __future__ import annotations

import pytest

from cllint.analysis import registry
from cllint.analysis.rules.base import Rule


def test_every_registered_rule_writes_its_own_check() -> None:
    rules = registry.all_rules()
    assert len(rules) > 50
    missing = sorted(code for code, cls in rules.items() if cls.check is Rule.check)
    assert missing == []


def test_a_rule_without_check_fails_at_its_first_call_naming_itself() -> None:
    class NoCheck(Rule):
        code = "CL999"
        name = "no-check"

    with pytest.raises(NotImplementedError, match="NoCheck.check"):
        list(NoCheck().check(None))  # type: ignore[arg-type]


def test_rule_classes_are_plain_classes() -> None:
    # held out: written with the rest, run once the change was done
    assert type(Rule) is type
    assert all(type(cls) is type for cls in registry.all_rules().values())
