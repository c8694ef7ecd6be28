"""`Rule` is a plain base class, not an `abc.ABC` (issue 32, session 19: ~100 rule classes are
made at every start-up, and ABCMeta's bookkeeping was 0.8% of a one-line kernel's run). What
the abstract method enforced is held here instead: every registered rule writes its own
`check`, and a rule class without one is refused where it is defined, naming itself."""

from __future__ import annotations

import pytest

from cllint.analysis import registry
from cllint.analysis.rules.base import Rule


def test_every_registered_rule_writes_its_own_check() -> None:
    rules = registry.all_rules()
    assert len(rules) > 50
    missing = sorted(code for code, cls in rules.items() if not callable(getattr(cls, "check", None)))
    assert missing == []


def test_a_rule_without_check_is_refused_where_it_is_defined() -> None:
    with pytest.raises(TypeError, match=r"rule CL999 \(NoCheck\) defines no check"):
        class NoCheck(Rule):
            code = "CL999"
            name = "no-check"


def test_a_rule_inheriting_its_check_is_accepted() -> None:
    class Base(Rule):
        def check(self, ctx):  # noqa: ANN001, ANN202
            return iter(())

    class Derived(Base):
        code = "CL998"
        name = "derived"

    assert list(Derived().check(None)) == []  # type: ignore[arg-type]


def test_rule_classes_are_plain_classes() -> None:
    # held out: written with the rest, run once the change was done
    assert type(Rule) is type
    assert all(type(cls) is type for cls in registry.all_rules().values())
