"""The per-file analysis budget (issue 19, item 4): when it runs out, the file keeps what
finished rules found and gets one CL091 naming the rules that did not finish; never a hang.
Inputs are generated and sized to run in seconds; nothing here asserts a time."""

from __future__ import annotations

from pathlib import Path

from cllint.analysis.records import replace
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.registry import rule
from cllint.grammar import parse

REPO = Path(__file__).resolve().parent.parent


def nested_calls(depth: int) -> bytes:
    """`fabs(fabs(...x...))`: each call's checks walk its whole argument (quadratic)."""
    return (f"__kernel void k(__global float *a, float x) {{ a[0] = {'fabs(' * depth}x{')' * depth}; }}\n"
            ).encode()


def lint(src: bytes, **kw: object) -> list:
    return lint_tree("t.cl", src, parse(src), replace(LintOptions(), **kw))


def test_budget_stops_a_slow_rule_and_says_which() -> None:
    diags = lint(nested_calls(12_000), budget=0.3)
    budget = [d for d in diags if d.code == "CL091"]
    assert len(budget) == 1
    d = budget[0]
    assert d.severity.value == "info" and d.span.start == 0 and d.span.end > 0
    assert d.message.startswith("analysis stopped after 0.3 s in rule 'CL")
    assert d.message.endswith("later rules not run")


def test_a_budget_that_suffices_changes_nothing() -> None:
    src = (REPO / "examples" / "reduce.cl").read_bytes()
    assert lint(src, budget=60.0) == lint(src)
    assert all(d.code != "CL091" for d in lint(src, budget=60.0))


def test_no_budget_no_report() -> None:
    assert all(d.code != "CL091" for d in lint(nested_calls(200)))


def test_finished_rules_keep_their_findings() -> None:
    """A syntax error found before the budget runs out is still reported."""
    src = nested_calls(12_000).replace(b"a[0] =", b"a[0] = = ")
    codes = [d.code for d in lint(src, budget=0.3)]
    assert "CL001" in codes and "CL091" in codes


def test_rule_is_registered_and_documented() -> None:
    r = rule("CL091")
    assert r is not None and r.name == "analysis-budget-exceeded"
    assert (REPO / "docs" / "rules" / "CL091.md").exists()


def test_heldout_budget_on_a_deep_expression_in_the_editor_setting() -> None:
    """Held out: the issue's own case with the editor's budget; finishes with or without CL091,
    and never with a false error."""
    src = ("__kernel void k(__global float *a, float x) { a[0] = " + " + ".join(["x"] * 100_000) + "; }\n").encode()
    diags = lint(src, budget=2.0)
    assert [d.code for d in diags if d.severity.value == "error"] == []


def test_cli_budget_option(tmp_path: Path, capsys, monkeypatch) -> None:
    import json

    from cllint.cli import engine
    from cllint.cli.main import main

    monkeypatch.setattr(engine, "CACHE_DIR", tmp_path / "cache")
    f = tmp_path / "nested.cl"
    f.write_bytes(nested_calls(12_000))
    main(["check", "--budget", "0.3", "--format", "json", "--exit-zero", str(f)])
    out = json.loads(capsys.readouterr().out)
    assert [d["code"] for d in out if d["code"] == "CL091"] == ["CL091"]
    assert not any((tmp_path / "cache").glob("*"))  # not stored: the next run may finish
