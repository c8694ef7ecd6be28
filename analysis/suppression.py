"""Inline suppressions: `// cllint: ignore[CL201]` on a line (or the line before),
`// cllint: file-ignore[CL3]` anywhere in a file. Codes are codes or prefixes."""

from __future__ import annotations


from cllint.analysis.diagnostics import Diagnostic, Severity, Span, Tag
from cllint.analysis.lazy_re import lazy

_DIRECTIVE = lazy(rb"cllint:\s*(ignore|file-ignore)\[([A-Za-z0-9_,\s]*)\]")


class Suppression:
    kind: str  # "ignore" or "file-ignore"
    codes: tuple[str, ...]
    span: Span
    line: int  # 0-based line of the comment
    used: set[str]
    alone: bool  # the comment stands alone on its line: it covers the next line too

    __match_args__ = ("kind", "codes", "span", "line", "used", "alone")

    def __init__(
        self,
        kind: str,
        codes: tuple[str, ...],
        span: Span,
        line: int,
        used: set[str],
        alone: bool = False,
    ) -> None:
        self.kind = kind
        self.codes = codes
        self.span = span
        self.line = line
        self.used = used
        self.alone = alone

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"kind={self.kind!r}, " f"codes={self.codes!r}, "
                f"span={self.span!r}, " f"line={self.line!r}, " f"used={self.used!r}, "
                f"alone={self.alone!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.kind, self.codes, self.span, self.line, self.used, self.alone)
        theirs = (other.kind, other.codes, other.span, other.line, other.used, other.alone)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def find_suppressions(file: str, source: bytes) -> list[Suppression]:
    out = []
    if b"cllint:" not in source:
        return out
    for m in _DIRECTIVE.finditer(source):
        # Only inside comments: the directive must follow '//' or '/*' on its line.
        line_start = source.rfind(b"\n", 0, m.start()) + 1
        prefix = source[line_start : m.start()]
        if b"//" not in prefix and b"/*" not in prefix:
            continue
        codes = tuple(c.strip().upper() for c in m.group(2).decode().split(",") if c.strip())
        line = source.count(b"\n", 0, m.start())
        out.append(Suppression(m.group(1).decode(), codes, Span(file, m.start(), m.end()), line, set(),
                               _code_only_before(source, m.start())))
    return out


def suppressed_at(sups: list[Suppression], code: str, line: int) -> bool:
    """Whether a report of `code` on 0-based `line` is suppressed, as `apply_suppressions`
    judges it (for findings merged before it runs: a suppressed one stays apart)."""
    return any((s.kind == "file-ignore" or s.line == line or (s.line + 1 == line and s.alone))
               and any(code.startswith(c) for c in s.codes) for s in sups)


def _line_of(source: bytes, offset: int, cache: dict[int, int]) -> int:
    if offset not in cache:
        cache[offset] = source.count(b"\n", 0, offset)
    return cache[offset]


def _code_only_before(source: bytes, start: int) -> bool:
    """True when the comment stands alone on its line (then it covers the next line)."""
    line_start = source.rfind(b"\n", 0, start) + 1
    before = source[line_start:start].strip()
    return before.startswith(b"//") or before.startswith(b"/*")


# Codes whose diagnostics come from outside the lint (clang's CL099 after a pause, the
# device's CL9xx after a build): a suppression of them is not judged unused here.
OUTSIDE_CODES = ("CL099", "CL9")


def apply_suppressions(
    file: str, source: bytes, diagnostics: list[Diagnostic], *, report_unused: bool,
    suppressions: list[Suppression] | None = None,
) -> list[Diagnostic]:
    """`suppressions`: found by the caller (host files, whose comments are not OpenCL C's)."""
    sups = find_suppressions(file, source) if suppressions is None else suppressions
    if not sups:
        return diagnostics
    lines: dict[int, int] = {}
    kept = []
    for d in diagnostics:
        line = _line_of(source, d.span.start, lines)
        hit = None
        for s in sups:
            applies = s.kind == "file-ignore" or s.line == line or (
                s.line + 1 == line and s.alone
            )
            if applies:
                match = next((c for c in s.codes if d.code.startswith(c)), None)
                if match is not None:
                    s.used.add(match)
                    hit = s
                    break
        if hit is None:
            kept.append(d)
    if report_unused:
        for s in sups:
            unused = [c for c in s.codes if c not in s.used and not c.startswith(OUTSIDE_CODES)]
            if unused or not s.codes:
                what = ", ".join(f"'{c}'" for c in unused) or "nothing"
                kept.append(
                    Diagnostic(
                        code="CL090",
                        severity=Severity.WARNING,
                        message=f"suppression of {what} suppresses no diagnostic",
                        span=s.span,
                        tags=(Tag.UNNECESSARY,),
                    )
                )
    return kept
