"""CL002-CL004: problems the preprocessor view finds in directives."""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import Rule, RuleContext


class _ViewRule(Rule):
    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        if ctx.preprocessor is None:
            return
        for d in ctx.preprocessor.diagnostics:
            if d.code == self.code:
                yield self.diagnostic(d.span, d.message, notes=d.notes)


class MissingInclude(_ViewRule):
    """## What it does
    Reports an `#include` whose file is found neither next to the including file nor
    on an include path (`-I`, `include` in the configuration).

    A name the workspace's host code hands the compiler itself is not reported: the
    `header_include_names` of `clCompileProgram`, pyopencl's `compile(headers=[("pi.h", prg)])`,
    a method adding a header to a program (`AddHeader("inputmaps.cl", src)`).

    ## Why is this bad?
    The device compiler fails on it, and cllint cannot see the macros and declarations
    the header provides, so checks in this file are less precise.

    ## Example
    ```c
    #include "commom.h"
    ```

    ## Use instead
    ```c
    #include "common.h"
    ```
    or pass the folder that holds it with `-I DIR`.

    ## OpenCL spec
    Section 6.10 "Preprocessor Directives and Macros" (the C99 rules apply).
    """

    code = "CL002"
    name = "missing-include"
    severity = Severity.WARNING


class UnbalancedConditional(_ViewRule):
    """## What it does
    Reports `#if` groups that are not closed, and `#else`, `#elif` or `#endif` lines
    without a matching `#if`.

    ## Why is this bad?
    The compiler rejects the file; which code is active becomes impossible to tell.

    ## Example
    ```c
    #ifdef cl_khr_fp64
    double f(double x) { return x; }
    ```

    ## Use instead
    ```c
    #ifdef cl_khr_fp64
    double f(double x) { return x; }
    #endif
    ```

    ## OpenCL spec
    Section 6.10 "Preprocessor Directives and Macros".
    """

    code = "CL003"
    name = "unbalanced-conditional"
    severity = Severity.ERROR


class InvalidCondition(_ViewRule):
    """## What it does
    Reports an `#if` or `#elif` condition that is not a valid preprocessor expression.

    ## Why is this bad?
    The compiler rejects it; cllint cannot tell which branch is active and treats it
    as unknown.

    ## Example
    ```c
    #if __OPENCL_C_VERSION__ >=
    ```

    ## Use instead
    ```c
    #if __OPENCL_C_VERSION__ >= 200
    ```

    ## OpenCL spec
    Section 6.10 "Preprocessor Directives and Macros".
    """

    code = "CL004"
    name = "invalid-preprocessor-condition"
    severity = Severity.ERROR


RULES = [MissingInclude, UnbalancedConditional, InvalidCondition]
