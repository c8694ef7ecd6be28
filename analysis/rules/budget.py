"""CL091: the file's analysis budget ran out (reported by the lint driver, which alone
knows which rules it stopped or never started)."""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.budget import BUDGET_CODE
from cllint.analysis.rules.base import Rule, RuleContext


class AnalysisBudget(Rule):
    """## What it does
    Reports, once per file, that linting it took longer than its time budget and names the
    rules that were stopped or not started; what the other rules found is still reported.

    ## Why is this bad?
    Nothing is wrong with the code for this reason alone, but the named rules did not check
    it: a clean result from them means nothing for this file. Generated kernels (one
    expression of 100,000 terms) are what usually meets the budget.

    ## Example
    A kernel whose body is one expression of 100,000 terms, linted in the editor (budget 2 s).

    ## Use instead
    Raise the budget (`cllint check --budget SECONDS`), or lint the generator's smaller output.

    ## OpenCL spec
    Not a language rule: a cllint convention.
    """

    code = BUDGET_CODE
    name = "analysis-budget-exceeded"
    severity = Severity.INFO

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())  # produced by cllint.analysis.lint.run_rules

    @staticmethod
    def report(file: str, source: bytes, seconds: float, skipped: list[str]) -> Diagnostic:
        """On the file's first line: the budget is the whole file's."""
        end = source.find(b"\n")
        more = len(skipped) - 1
        rest = f"; {more} later rule{'s' if more != 1 else ''} not run" if more else ""
        return Diagnostic(AnalysisBudget.code, Severity.INFO,
                          f"analysis stopped after {seconds:g} s in rule '{skipped[0]}'{rest}",
                          Span(file, 0, len(source) if end < 0 else end))


RULES = [AnalysisBudget]
