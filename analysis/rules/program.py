"""CL006-CL007: the file as part of a program (issue 29). Both are notes the lint driver
makes from what it knows about the file's program; neither is a problem in the code."""

from __future__ import annotations

from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.rules.base import Rule, RuleContext


def _first_line(source: bytes) -> tuple[int, int]:
    end = source.find(b"\n")
    return 0, len(source) if end < 0 else end


class NotOpenCLSource(Rule):
    """## What it does
    Says, once, that a file named like OpenCL C (`.cl`, `.clh`, `.ocl`, `.opencl`) is not
    OpenCL C, and skips it: CUDA sources kept beside OpenCL ones, C++ sources, code-generator
    templates written as C strings, templates the host renders before building (Jinja's
    `{{ name }}` and `{% if %}`, Mako's `${name}` and `% if` lines, in code rather than in
    comments or strings), and kernels wrapped in C++ raw strings (`R"( ... )"`) or a
    stringify macro (`MSTRINGIFY( ... )`) for the host to `#include` into a string. Also a
    compiler test whose lit `RUN:` lines compile it only as C++ for OpenCL (`-cl-std=clc++`,
    `-x clcpp`), or only in builds that expect errors (`not %clang_cc1`, `-verify` with
    `expected-error` comments): invalid on purpose.

    ## Why is this bad?
    Nothing is wrong: no compiler sees the file as it is, so no rule checks it. The note tells
    you why the file gets no other report.

    ## Example
    ```c
    R"(
    __kernel void k(__global float *a) { a[0] = 1.0f; }
    )"
    ```

    ## Use instead
    Nothing to change. To lint the kernel, keep it in a `.cl` file the host reads, or in a
    string of host code cllint reads (see "Kernels inside host code" in the README).

    ## OpenCL spec
    Not a language rule: a cllint convention.
    """

    code = "CL006"
    name = "not-opencl-source"
    severity = Severity.INFO

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        return iter(())  # made by cllint.analysis.lint.lint_tree, which skips the file

    @classmethod
    def report(cls, file: str, source: bytes, reason: str) -> Diagnostic:
        start, end = _first_line(source)
        # (a compiler test that expects errors is OpenCL C, invalid on purpose)
        head = "not checked" if reason.startswith("a compiler test") else "not OpenCL C, not checked"
        return Diagnostic(cls.code, cls.severity, f"{head}: {reason}", Span(file, start, end))


class ProgramFragment(Rule):
    """## What it does
    Says, once per file, that the file uses names it does not declare which another source
    of the workspace defines, and that cllint reads that source before this one, as a host
    that joins the files into one program does. Only when nothing says how the file is
    built: a `[[program]]` in the configuration, or a host call cllint reads, names the
    sources and their order instead.

    Likewise for a template whose host is elsewhere (a kernel library whose host, in another
    repository, prepends a `#define` for each parameter's type and accessors before building):
    a parameter's type is a name nothing in the workspace defines, and no host, build or
    source of the workspace builds the file. The words it uses that nothing defines and that
    are spelled like macros (`IMAGE_src_TYPE`, `READ_src_IMAGE` for a parameter `src`) are
    taken as the host's macros, named in the note, and nothing that depends on them is
    reported.

    ## Why is this bad?
    Nothing is wrong: the file is a fragment of a program. The note says where its names
    come from, so that a name reported undeclared elsewhere in the file is not a surprise.

    ## Example
    `kernels.cl` calls `load_tile`, which only `common.cl` defines:
    ```c
    __kernel void k(__global float *a) { a[0] = load_tile(a); }
    ```

    ## Use instead
    Nothing to change. To make the program exact, name it in the configuration:
    ```toml
    [[tool.cllint.program]]
    sources = ["common.cl", "kernels.cl"]
    options = "-DTILE=16"
    ```

    ## OpenCL spec
    Section 5.8.1 of the OpenCL API specification (`clCreateProgramWithSource` joins its
    strings into one program).
    """

    code = "CL007"
    name = "program-fragment"
    severity = Severity.INFO

    def check(self, ctx: RuleContext) -> Iterator[Diagnostic]:
        note = ctx.options.get("program_note")
        if not note:
            return
        message, start, end = note
        if start < 0 or end > len(ctx.source):
            start, end = _first_line(ctx.source)
        yield self.diagnostic(Span(ctx.file, start, end), message)


RULES = [NotOpenCLSource, ProgramFragment]
