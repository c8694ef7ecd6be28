"""What an analysis reports before it is a diagnostic: plain data (byte offsets, a message,
notes, a fix plan), so that analyses need not know files or spans. The rules turn them into
diagnostics (`rules/_findings.py`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class FixPlan:
    title: str
    edits: tuple[Edit, ...]
    safe: bool = True


@dataclass(frozen=True)
class Finding:
    code: str
    start: int
    end: int
    message: str
    notes: tuple[tuple[int, int, str], ...] = ()
    fix: FixPlan | None = None


__all__ = ["Edit", "Finding", "FixPlan"]
