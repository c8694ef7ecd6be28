"""A rule's group and fix availability are members made once (`records.FixedMember`), as the
`Enum`s they replace behaved, not enums made at every start-up (issue 32, session 19):
compared by identity, read by `.value` where shown (`cllint rules`, `cllint explain`).
Cases written before the change; the last (held out) was run once it was done."""

from __future__ import annotations

import json
import subprocess
import sys

from cllint.analysis import registry
from cllint.analysis.rules.base import FixAvailability, Group


def test_members_values_and_identity() -> None:
    assert Group.PREVIEW.value == "preview" and Group.STABLE.value == "stable" and Group.REMOVED.value == "removed"
    assert FixAvailability.NONE.value == "none" and FixAvailability.ALWAYS.value == "always"
    assert Group.PREVIEW is Group.PREVIEW and Group.PREVIEW != Group.STABLE
    rules = registry.all_rules().values()
    assert all(r.group in (Group.STABLE, Group.PREVIEW, Group.REMOVED) for r in rules)
    assert {r.fix_availability for r in rules} <= {FixAvailability.NONE, FixAvailability.SOMETIMES,
                                                   FixAvailability.ALWAYS}


def test_cllint_rules_shows_the_values() -> None:
    run = subprocess.run([sys.executable, "-m", "cllint", "rules", "--format", "json"], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    rows = json.loads(run.stdout)
    assert {r["group"] for r in rows} <= {"stable", "preview", "removed"} and "stable" in {r["group"] for r in rows}
    assert {r["fix"] for r in rows} <= {"none", "sometimes", "always"} and "always" in {r["fix"] for r in rows}


def test_cllint_explain_shows_the_fix_value() -> None:
    # held out
    run = subprocess.run([sys.executable, "-m", "cllint", "explain", "CL101"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode == 0, run.stderr
    head = run.stdout.split("\n\n")[1]
    assert head.startswith("Severity: ") and any(f"Fix: {v}." in head for v in ("none", "sometimes", "always")), head
