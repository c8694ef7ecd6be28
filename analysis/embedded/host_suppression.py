"""Suppression comments written in the host language: `# cllint: ignore[CL601]` on a Python
line (or alone on the line before), `// cllint: ignore[CL010]` on a C/C++ line. They apply to
every report mapped onto that host line: the CL6xx checks of a call, and kernel reports from
a string that sits on it. Comments are the host grammar's comment nodes, so a directive
inside a string literal is no comment."""

from __future__ import annotations

from cllint.analysis.diagnostics import Diagnostic, Span
from cllint.analysis.suppression import _DIRECTIVE, Suppression, apply_suppressions

from .languages import HostLanguage


def _comments(source: bytes, language: HostLanguage):
    if language is HostLanguage.PYTHON:
        from .python_host import parse_python, walk

        tree = parse_python(source)
    else:
        from .cpp_host import parse_cpp
        from .python_host import walk

        tree = parse_cpp(source)
    return (n for n in walk(tree.root_node) if n.type == "comment")


def host_suppressions(path: str, source: bytes, language: HostLanguage) -> list[Suppression]:
    if b"cllint:" not in source:
        return []
    out = []
    for comment in _comments(source, language):
        text = source[comment.start_byte:comment.end_byte]
        for m in _DIRECTIVE.finditer(text):
            start = comment.start_byte + m.start()
            line_start = source.rfind(b"\n", 0, comment.start_byte) + 1
            codes = tuple(c.strip().upper() for c in m.group(2).decode().split(",") if c.strip())
            out.append(Suppression(m.group(1).decode(), codes, Span(path, start, comment.start_byte + m.end()),
                                   source.count(b"\n", 0, start), set(),
                                   alone=not source[line_start:comment.start_byte].strip()))
    return out


def suppress_on_host_lines(path: str, source: bytes, language: HostLanguage,
                           diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The reports no host comment suppresses. Unused host suppressions are not reported
    (CL090 judges the kernel's own comments, which see every rule that ran)."""
    sups = host_suppressions(path, source, language)
    if not sups:
        return diagnostics
    here = [d for d in diagnostics if d.span.file == path]  # not a header's reports
    kept = apply_suppressions(path, source, here, report_unused=False, suppressions=sups)
    return kept + [d for d in diagnostics if d.span.file != path]
