"""Findings (plain data from an analysis) as a rule's diagnostics."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator

from cllint.analysis.diagnostics import Applicability, Diagnostic, Edit, Fix, Note, Span
from cllint.analysis.findings import Finding
from cllint.analysis.rules.base import Rule, RuleContext


def diagnostics(rule: Rule, ctx: RuleContext, findings: Iterable[Finding]) -> Iterator[Diagnostic]:
    """The findings with the rule's code, with notes and fix in the file's spans."""
    for f in findings:
        if f.code != rule.code:
            continue
        notes = [Note(Span(ctx.file, s, e), m) for s, e, m in f.notes]
        fix = None
        if f.fix is not None:
            fix = Fix(f.fix.title, tuple(Edit(Span(ctx.file, e.start, e.end), e.text) for e in f.fix.edits),
                      Applicability.SAFE if f.fix.safe else Applicability.UNSAFE)
        yield rule.diagnostic(Span(ctx.file, f.start, f.end), f.message, notes=notes, fix=fix)


def cached(ctx: RuleContext, attr: str, compute: Callable[[], list[Finding]]) -> list[Finding]:
    """One analysis per context, shared by the family's rules (stored on the context as
    `attr`). Pathological nesting silences the family rather than failing the file."""
    found = getattr(ctx, attr, None)
    if found is None:
        try:
            found = compute()
        except RecursionError:
            found = []
        setattr(ctx, attr, found)
    return found
