"""The diagnostic type every analysis, the device runner, the CLI and the server share.

Ranges are byte offsets into the UTF-8 source of one file (`FileId`); converting to
lines, columns or UTF-16 happens at the edges (CLI output, LSP conversion).
"""

from __future__ import annotations

from typing import ClassVar

from cllint.analysis.records import FixedMember

FileId = str  # a path or URI; the model never opens it


# Members made once (`FixedMember`: `name`, `value`, equal only to themselves), not enums made
# at every start-up (issue 32); outputs show their `value`s.
class Severity(FixedMember):
    __slots__ = ()
    ERROR: ClassVar[Severity]
    WARNING: ClassVar[Severity]
    INFO: ClassVar[Severity]
    HINT: ClassVar[Severity]  # true but harmless (a deprecation): editors only, unless selected by code


Severity.define(ERROR="error", WARNING="warning", INFO="info", HINT="hint")


class Applicability(FixedMember):
    __slots__ = ()
    SAFE: ClassVar[Applicability]  # applied by `cllint check --fix`
    UNSAFE: ClassVar[Applicability]  # needs `--unsafe-fixes`; may change behaviour
    DISPLAY_ONLY: ClassVar[Applicability]  # shown, never applied


Applicability.define(SAFE="safe", UNSAFE="unsafe", DISPLAY_ONLY="display-only")


class Tag(FixedMember):
    __slots__ = ()
    UNNECESSARY: ClassVar[Tag]  # e.g. a suppression that suppresses nothing
    DEPRECATED: ClassVar[Tag]


Tag.define(UNNECESSARY="unnecessary", DEPRECATED="deprecated")


class Span:
    __slots__ = ("file", "start", "end")
    file: FileId
    start: int  # byte offset, inclusive
    end: int  # byte offset, exclusive

    __match_args__ = ("file", "start", "end")

    def __init__(self, file: FileId, start: int, end: int) -> None:
        self.file = file
        self.start = start
        self.end = end

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(file={self.file!r}, start={self.start!r}, end={self.end!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.file, self.start, self.end) == (other.file, other.start, other.end)

    def __hash__(self) -> int:
        return hash((self.file, self.start, self.end))


class Note:
    __slots__ = ("span", "message")
    span: Span
    message: str

    __match_args__ = ("span", "message")

    def __init__(self, span: Span, message: str) -> None:
        self.span = span
        self.message = message

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(span={self.span!r}, message={self.message!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.span, self.message) == (other.span, other.message)

    def __hash__(self) -> int:
        return hash((self.span, self.message))


class Edit:
    __slots__ = ("span", "replacement")
    span: Span
    replacement: str

    __match_args__ = ("span", "replacement")

    def __init__(self, span: Span, replacement: str) -> None:
        self.span = span
        self.replacement = replacement

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(span={self.span!r}, replacement={self.replacement!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.span, self.replacement) == (other.span, other.replacement)

    def __hash__(self) -> int:
        return hash((self.span, self.replacement))


class Fix:
    __slots__ = ("title", "edits", "applicability")
    title: str  # sentence-case imperative, no final period
    edits: tuple[Edit, ...]
    applicability: Applicability

    __match_args__ = ("title", "edits", "applicability")

    def __init__(
        self,
        title: str,
        edits: tuple[Edit, ...],
        applicability: Applicability = Applicability.SAFE,
    ) -> None:
        self.title = title
        self.edits = edits
        self.applicability = applicability

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"title={self.title!r}, " f"edits={self.edits!r}, "
                f"applicability={self.applicability!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.title, self.edits, self.applicability)
        theirs = (other.title, other.edits, other.applicability)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.title, self.edits, self.applicability))


class Diagnostic:
    __slots__ = ("code", "severity", "message", "span", "notes", "fix", "tags")
    code: str  # e.g. "CL201"
    severity: Severity
    message: str  # one lowercase clause, no final period, code entities in single quotes
    span: Span
    notes: tuple[Note, ...]
    fix: Fix | None
    tags: tuple[Tag, ...]

    __match_args__ = ("code", "severity", "message", "span", "notes", "fix", "tags")

    def __init__(
        self,
        code: str,
        severity: Severity,
        message: str,
        span: Span,
        notes: tuple[Note, ...] = (),
        fix: Fix | None = None,
        tags: tuple[Tag, ...] = (),
    ) -> None:
        self.code = code
        self.severity = severity
        self.message = message
        self.span = span
        self.notes = notes
        self.fix = fix
        self.tags = tags

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"code={self.code!r}, " f"severity={self.severity!r}, "
                f"message={self.message!r}, " f"span={self.span!r}, " f"notes={self.notes!r}, "
                f"fix={self.fix!r}, " f"tags={self.tags!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.code, self.severity, self.message, self.span, self.notes, self.fix, self.tags)
        theirs = (other.code, other.severity, other.message, other.span, other.notes, other.fix, other.tags)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.code, self.severity, self.message, self.span, self.notes, self.fix, self.tags))
