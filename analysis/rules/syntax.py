"""CL0xx rules read straight from the syntax tree."""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.preprocessor.decided import decided_dead_ranges, within
from cllint.analysis.rules.base import RuleContext, Rule
from cllint.analysis.syntax import syntax_errors


class SyntaxError_(Rule):
    """## What it does
    Reports code the parser cannot read as OpenCL C.

    ## Why is this bad?
    The device compiler rejects the file, and every other check is blind in the
    unreadable region. Text in a conditional branch that the file's own `#define`s, `-D`
    or the chosen target rule out is not compiled, and is not reported. cllint reads macros it does not know as qualifiers or
    statements where it can, so what is left is usually a real typo: a missing `;`,
    an unbalanced bracket, or C++ syntax that OpenCL C does not have.

    ## Example
    ```c
    kernel void k(global float *a) {
        a[0] = 1.0f
    }
    ```

    ## Use instead
    ```c
    kernel void k(global float *a) {
        a[0] = 1.0f;
    }
    ```

    ## OpenCL spec
    Section 6, "The OpenCL C Programming Language" (the language is C99 plus the
    OpenCL additions).
    """

    code = "CL001"
    name = "syntax-error"
    severity = Severity.ERROR
    spec_section = "the-opencl-c-programming-language"

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        errors = syntax_errors(ctx.tree, ctx.source)
        if not errors:
            return
        portable = ctx.target.predefined_macros() if ctx.options.get("mode", "portability") == "portability" else None
        dead = decided_dead_ranges(ctx.preprocessor, portable)
        for err in errors:
            # (a bracket opened in a dead arm, `#ifdef __cplusplus` / `extern "C" {`, is no bracket)
            if not within(dead, err.start) and (err.opened_at is None or not within(dead, err.opened_at)):
                yield self.diagnostic(Span(ctx.file, err.start, err.end), err.message)


RULES = [SyntaxError_]
