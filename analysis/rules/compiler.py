"""CL099: errors from clang, the optional completeness layer (`--compiler clang`).

No static check: cllint/compiler.py runs clang and reports under this code, so that
selection, suppression and docs work as for every rule.
"""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.rules.base import Rule, RuleContext


class CompilerError(Rule):
    """## What it does
    Reports an error that clang finds in the file and no native rule reported on the
    same line, tagged `clang:`.

    It runs `clang-19 -x cl -fsyntax-only` only when asked: `cllint
    check --compiler clang`, or in the editor with the `compilerCheck` setting (`auto`,
    the default, runs it in the background when clang is found, never in an untrusted
    workspace). The file's include paths, defines and target become clang's `-I`, `-D`,
    `-cl-std` and `-cl-ext` flags. An undeclared name spelled like a host macro
    (`BLOCK_SIZE`) is left to CL012. Where clang calls a name undeclared that the native
    rules found or left to the host (a type the host passes with `-D`, a sibling source's
    helper), clang built less than the program and nothing is reported for the file; where
    both call the same names missing, clang's other errors are reported. An error in a
    macro's body is one report at the macro's first use, counting the others, each a note.

    ## Why is this bad?
    The OpenCL C compiler of every driver rejects the program, so no kernel in it can
    be built. The native rules cover the everyday mistakes as you type; clang covers the
    rest of the language (statements out of place, invalid operands, and so on).

    ## Example
    ```c
    kernel void k(global float *a) {
        a[0] = a[1] % 2.0f;  // clang: invalid operands to binary expression
    }
    ```

    ## Use instead
    ```c
    kernel void k(global float *a) {
        a[0] = fmod(a[1], 2.0f);
    }
    ```

    ## OpenCL spec
    Section 6 "The OpenCL C Programming Language" (OpenCL C 3.0 specification).
    """

    code = "CL099"
    name = "compiler-error"
    severity = Severity.ERROR

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())


RULES = [CompilerError]
