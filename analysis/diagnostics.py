"""The diagnostic type every analysis, the device runner, the CLI and the server share.

Ranges are byte offsets into the UTF-8 source of one file (`FileId`); converting to
lines, columns or UTF-16 happens at the edges (CLI output, LSP conversion).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

FileId = str  # a path or URI; the model never opens it


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"
    HINT = "hint"  # true but harmless (a deprecation): editors only, unless selected by code


class Applicability(str, Enum):
    SAFE = "safe"  # applied by `cllint check --fix`
    UNSAFE = "unsafe"  # needs `--unsafe-fixes`; may change behaviour
    DISPLAY_ONLY = "display-only"  # shown, never applied


class Tag(str, Enum):
    UNNECESSARY = "unnecessary"  # e.g. a suppression that suppresses nothing
    DEPRECATED = "deprecated"


@dataclass(frozen=True, slots=True)
class Span:
    file: FileId
    start: int  # byte offset, inclusive
    end: int  # byte offset, exclusive


@dataclass(frozen=True, slots=True)
class Note:
    span: Span
    message: str


@dataclass(frozen=True, slots=True)
class Edit:
    span: Span
    replacement: str


@dataclass(frozen=True, slots=True)
class Fix:
    title: str  # sentence-case imperative, no final period
    edits: tuple[Edit, ...]
    applicability: Applicability = Applicability.SAFE


@dataclass(frozen=True, slots=True)
class Diagnostic:
    code: str  # e.g. "CL201"
    severity: Severity
    message: str  # one lowercase clause, no final period, code entities in single quotes
    span: Span
    notes: tuple[Note, ...] = ()
    fix: Fix | None = None
    tags: tuple[Tag, ...] = field(default=())
