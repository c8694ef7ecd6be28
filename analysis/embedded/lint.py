"""Lints the kernels of one host file with the rules `.cl` files get, and maps every
diagnostic back into the host file (line and column inside the string literal)."""

from __future__ import annotations

from collections.abc import Callable

from cllint.analysis.records import replace
from cllint.analysis.diagnostics import Diagnostic, Edit, Fix, Note, Span
from cllint.analysis.lint import LintOptions, lint_tree
from cllint.analysis.preprocessor.view import IncludeResolver
from cllint.grammar import parse

from .cpp_host import find_cpp_kernels
from .host_suppression import suppress_on_host_lines
from .kernel import HostKernel
from .languages import HostLanguage, host_language
from .posmap import PositionMap
from .python_host import find_python_kernels


def find_kernels(path: str, source: bytes, language: HostLanguage | None = None) -> list[HostKernel]:
    language = language or host_language(path)
    if language is HostLanguage.PYTHON:
        return find_python_kernels(source)
    if language is HostLanguage.CPP:
        return find_cpp_kernels(source)
    return []


def lint_host(path: str, source: bytes, options: LintOptions, *,
              include_resolver: IncludeResolver | None = None,
              language: HostLanguage | None = None,
              kernels: list[HostKernel] | None = None,
              lint_kernel: Callable[[int, HostKernel], tuple[str, list[Diagnostic]]] | None = None,
              ) -> list[Diagnostic]:
    """`kernels`: found by the caller already; `lint_kernel(i, kernel)`: the i-th kernel's
    diagnostics in kernel offsets and the file id they carry (the language server reads
    them from its incremental Host; by default each kernel is linted whole, as `path`)."""
    language = language or host_language(path)
    if kernels is None:
        kernels = find_kernels(path, source, language)
    out: list[Diagnostic] = []
    for i, kernel in enumerate(kernels):
        if lint_kernel is not None:
            file, diagnostics = lint_kernel(i, kernel)
        else:
            file, diagnostics = path, lint_tree(path, kernel.source, parse(kernel.source), options,
                                                include_resolver=include_resolver)
        mapped = (map_diagnostic(d, path, kernel.positions, file) for d in diagnostics)
        out.extend(d for d in mapped if d is not None)
    if language is HostLanguage.PYTHON:
        from .host_checks import check_host_calls

        enabled = {r.code for r in options.rules()}
        out.extend(d for d in check_host_calls(path, source, kernels) if d.code in enabled)
    if language is not None:
        out = suppress_on_host_lines(path, source, language, out)
    out.sort(key=lambda d: (d.span.start, d.code))
    return out


def _span(span: Span, path: str, positions: PositionMap, kernel_file: str) -> Span | None:
    if span.file != kernel_file:
        return span  # in an included header: its own file, its own offsets
    host = positions.to_host(span.start, span.end)
    return Span(path, *host) if host is not None else None


def map_diagnostic(d: Diagnostic, path: str, positions: PositionMap, kernel_file: str | None = None
                   ) -> Diagnostic | None:
    """The diagnostic in host offsets of `path` (its spans in `kernel_file`, by default `path`
    itself, are kernel offsets); None when it lies wholly in library-generated code."""
    kernel_file = path if kernel_file is None else kernel_file
    span = _span(d.span, path, positions, kernel_file)
    if span is None:
        return None
    notes = tuple(Note(s, n.message) for n in d.notes
                  if (s := _span(n.span, path, positions, kernel_file)) is not None)
    return replace(d, span=span, notes=notes, fix=_fix(d.fix, path, positions, kernel_file))


def _fix(fix: Fix | None, path: str, positions: PositionMap, kernel_file: str) -> Fix | None:
    """A fix survives only where each edit replaces verbatim host text with text that needs
    no escaping in the literal (a quote, backslash or newline might)."""
    if fix is None:
        return None
    edits = []
    for e in fix.edits:
        if e.span.file != kernel_file or not positions.is_exact(e.span.start, e.span.end):
            return None
        if any(c in e.replacement for c in "\\\"'\n{}%$"):
            return None
        host = positions.to_host(e.span.start, e.span.end)
        if host is None:
            return None
        edits.append(Edit(Span(path, *host), e.replacement))
    return replace(fix, edits=tuple(edits))
