"""A diagnostic's severity, a fix's applicability and a diagnostic's tags are members made
once (`records.FixedMember`), as the `str` enums they replace behaved where cllint reads them:
identity, `name`, `value`, the enum's repr, pickled (the results cache) as themselves, shown by
their values (issue 32, session 19: three enums made at every start-up). Cases written before
the change; the last (held out) was run once it was done."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

from cllint.analysis.diagnostics import Applicability, Diagnostic, Fix, Severity, Span, Tag


def test_members_values_names_identity_and_repr() -> None:
    assert Severity.ERROR.value == "error" and Severity.HINT.name == "HINT" and Severity.ERROR is Severity.ERROR
    assert Applicability.DISPLAY_ONLY.value == "display-only" and Tag.UNNECESSARY.value == "unnecessary"
    assert repr(Severity.WARNING) == "<Severity.WARNING: 'warning'>"
    assert Severity.ERROR != Severity.WARNING and Tag.DEPRECATED != Tag.UNNECESSARY


def test_a_pickled_diagnostic_keeps_its_members() -> None:
    d = Diagnostic("CL001", Severity.ERROR, "m", Span("k.cl", 0, 1),
                   fix=Fix("t", (), Applicability.UNSAFE), tags=(Tag.UNNECESSARY,))
    back = pickle.loads(pickle.dumps(d))
    assert back == d and back.severity is Severity.ERROR and back.tags[0] is Tag.UNNECESSARY
    assert back.fix is not None and back.fix.applicability is Applicability.UNSAFE


def test_outputs_show_the_values(tmp_path: Path) -> None:
    # held out
    k = tmp_path / "k.cl"
    k.write_text("__kernel void k(__global float *a) { a[0] = undeclared_name; }\n")
    env = {"XDG_CACHE_HOME": str(tmp_path / "cache"), "PATH": "/usr/bin:/bin"}
    js = subprocess.run([sys.executable, "-m", "cllint", "check", "--exit-zero", "--format", "json", str(k)],
                        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    rows = json.loads(js.stdout)
    assert rows and {r["severity"] for r in rows} <= {"error", "warning", "info", "hint"}
    assert "error" in {r["severity"] for r in rows}
    sarif = subprocess.run([sys.executable, "-m", "cllint", "check", "--exit-zero", "--format", "sarif", str(k)],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)
    levels = {r["level"] for run in json.loads(sarif.stdout)["runs"] for r in run["results"]}
    assert "error" in levels
