"""CL090: a suppression comment that suppresses nothing (reported by the lint driver,
which is the only place that knows which suppressions were used)."""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import Rule, RuleContext


class UnusedSuppression(Rule):
    """## What it does
    Reports a `// cllint: ignore[...]` or `// cllint: file-ignore[...]` comment, or one
    of its codes, that silences no diagnostic. Codes reported from outside the lint
    (CL099 from clang, CL9xx from a device build) are not judged.

    ## Why is this bad?
    A stale suppression hides the next real problem on that line and misleads readers
    about what the code does.

    ## Example
    ```c
    barrier(CLK_LOCAL_MEM_FENCE); // cllint: ignore[CL201]
    ```
    where the barrier is reached by every work-item.

    ## Use instead
    Delete the comment, or the code in it that no longer applies.

    ## OpenCL spec
    Not a language rule: a cllint convention.
    """

    code = "CL090"
    name = "unused-suppression"
    severity = Severity.WARNING

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())  # produced by cllint.analysis.suppression.apply_suppressions


RULES = [UnusedSuppression]
