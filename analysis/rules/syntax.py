"""CL0xx rules read straight from the syntax tree."""

from __future__ import annotations

import re
from collections.abc import Iterator

from cllint.analysis.diagnostics import Diagnostic, Severity, Span
from cllint.analysis.preprocessor.choices import host_choices
from cllint.analysis.preprocessor.decided import decided_dead_ranges, within
from cllint.analysis.rules.base import RuleContext, Rule
from cllint.analysis.syntax import SyntaxErrorInfo, parse, syntax_errors
from cllint.analysis.lazy_re import lazy


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
        from cllint.analysis.preprocessor.expanded_items import blanked, expansion_items  # (files with errors only)

        # Lines that call a macro of the program are read as its expansion (libclc's vectorizers)
        # (an error the parser recovers from late may hide the next such line: read again)
        readable = ctx.source
        for _ in range(_MAX_ROUNDS):
            items = expansion_items(readable, ctx.preprocessor, [e.start for e in errors])
            if not items:
                break
            readable = blanked(readable, items)
            errors = syntax_errors(parse(readable), readable)
        if errors:  # `a OP_BINARY b` with `-D OP_BINARY=&`: the lines read with the operator
            from cllint.analysis.preprocessor.operator_macros import operator_macro_text

            if (text := operator_macro_text(readable, ctx.preprocessor, [e.start for e in errors])) is not None:
                readable = text
                errors = syntax_errors(parse(readable), readable)
        errors = _not_from_host_arms(ctx.preprocessor, readable, errors)
        portable = ctx.target.predefined_macros() if ctx.options.get("mode", "portability") == "portability" else None
        dead = decided_dead_ranges(ctx.preprocessor, portable)
        unknown = _unknown_host_macros(ctx)
        for err in errors:
            if _in_placeholder(ctx.source, err.start):
                continue  # `#if <max_items> > 16`: a text template's slot (preprocessor/expr.py)
            if _after_else_or_endif(ctx.source, err.start):
                continue  # `#endif VERSION >= 200`: extra tokens clang only warns about
            # (a bracket opened in a dead arm, `#ifdef __cplusplus` / `extern "C" {`, is no bracket)
            if within(dead, err.start) or (err.opened_at is not None and within(dead, err.opened_at)):
                continue
            if unknown and _depends_on_host_macro(ctx.source, err.start, err.end, unknown):
                continue
            yield self.diagnostic(Span(ctx.file, err.start, err.end), err.message)


_NAME = lazy(rb"[A-Za-z_]\w*")
_MAX_ROUNDS = 8  # reparses of a file whose macro lines are read as their expansions


_DIRECTIVE_LINE = lazy(rb"^[ \t]*#.*$", re.M)


_CONDITION_LINE = lazy(rb"[ \t]*#[ \t]*(?:el)?if\b")
_PLACEHOLDER = lazy(rb"<[ \t]*[A-Za-z_]\w*[ \t]*>")


def _in_placeholder(source: bytes, at: int) -> bool:
    """Whether `at` is on an `#if` or `#elif` line with a `<name>` slot, which a text template's
    host fills before building: the preprocessor's own reading of the line (CL004) judges the
    rest of it."""
    line = source.rfind(b"\n", 0, at) + 1
    if _CONDITION_LINE.match(source, line) is None:
        return False
    end = source.find(b"\n", at)
    return _PLACEHOLDER.search(source, line, len(source) if end < 0 else end) is not None


_ELSE_OR_ENDIF = lazy(rb"[ \t]*#[ \t]*(?:else|endif)\b")


def _after_else_or_endif(source: bytes, at: int) -> bool:
    """Whether `at` follows `#else` or `#endif` on its line: clang-19 ignores such tokens with a
    warning ("extra tokens at end of #endif directive")."""
    line = source.rfind(b"\n", 0, at) + 1
    m = _ELSE_OR_ENDIF.match(source, line)
    return m is not None and at >= m.end()


def _not_from_host_arms(view: object, source: bytes, errors: list[SyntaxErrorInfo]) -> list[SyntaxErrorInfo]:
    """`errors` less those outside the groups whose arm the host picks that go away once the
    text of those groups' arms is blanked: text a build on the host's options never compiles
    (`#if (PAGES > 8)` / `ERROR: unsupported PAGES !!!` / `#endif`, LuxCore) breaks the parse
    of the code after it too. Errors inside such groups stay (without_host_choices decides)."""
    ranges = host_choices(view) if view is not None else []
    if not ranges or all(within(ranges, e.start) for e in errors):
        return errors
    data = bytearray(source)
    for start, end in ranges:
        arm = bytes(data[start:end])
        kept = {m.start(): m.end() for m in _DIRECTIVE_LINE.finditer(arm)}  # the directives stay
        out = bytearray(re.sub(rb"[^\n]", b" ", arm))
        for a, b in kept.items():
            out[a:b] = arm[a:b]
        data[start:end] = out
    text = bytes(data)
    again = syntax_errors(parse(text), text)
    starts = {e.start for e in again}
    lines = {text.count(b"\n", 0, e.start) for e in again}
    return [e for e in errors if within(ranges, e.start) or e.start in starts
            or source.count(b"\n", 0, e.start) in lines]


def _unknown_host_macros(ctx: RuleContext) -> frozenset[str]:
    """Names the host passes with `-D` (or writes as `#define`s) that nothing in the program
    defines: their bodies are unknown here."""
    view = ctx.preprocessor
    host = getattr(view, "host_macros", None)
    if not host:
        return frozenset()
    return frozenset(host) - set(view.defined_names())


def _depends_on_host_macro(source: bytes, start: int, end: int, unknown: frozenset[str]) -> bool:
    """Whether the code the parser could not read holds a macro whose body only the host
    knows (`in.x BINARY_OPERATOR guard.x` with `-DBINARY_OPERATOR=<`), or follows one that
    stands alone on its line (a struct's `ATOM_PARAMETER_DATA` member list): whether it parses
    is the host's choice (issue 29: report nothing that depends on it)."""
    if any(m.group().decode() in unknown for m in _NAME.finditer(source, start, max(end, start + 1))):
        return True
    line_start = source.rfind(b"\n", 0, start) + 1
    before = source[line_start:start].strip()
    if not before or before.startswith(b"//"):  # the line before may be the macro alone
        prev_end = line_start - 1
        for _ in range(_LINES_BACK):  # (over blank and comment lines: the error lands after them)
            if prev_end <= 0:
                return False
            before = source[source.rfind(b"\n", 0, prev_end) + 1:prev_end].strip()
            if before and not before.startswith(b"//"):
                break
            prev_end = source.rfind(b"\n", 0, prev_end)
    return _NAME.fullmatch(before) is not None and before.decode() in unknown


_LINES_BACK = 4  # blank or comment lines between a host macro's line and the error it leaves


RULES = [SyntaxError_]
