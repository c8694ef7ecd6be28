"""What an analysis reports before it is a diagnostic: plain data (byte offsets, a message,
notes, a fix plan), so that analyses need not know files or spans. The rules turn them into
diagnostics (`rules/_findings.py`)."""

from __future__ import annotations


class Edit:
    __slots__ = ("start", "end", "text")
    start: int
    end: int
    text: str

    __match_args__ = ("start", "end", "text")

    def __init__(self, start: int, end: int, text: str) -> None:
        self.start = start
        self.end = end
        self.text = text

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(start={self.start!r}, end={self.end!r}, text={self.text!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.start, self.end, self.text) == (other.start, other.end, other.text)

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.text))


class FixPlan:
    __slots__ = ("title", "edits", "safe")
    title: str
    edits: tuple[Edit, ...]
    safe: bool

    __match_args__ = ("title", "edits", "safe")

    def __init__(self, title: str, edits: tuple[Edit, ...], safe: bool = True) -> None:
        self.title = title
        self.edits = edits
        self.safe = safe

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(title={self.title!r}, edits={self.edits!r}, safe={self.safe!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.title, self.edits, self.safe) == (other.title, other.edits, other.safe)

    def __hash__(self) -> int:
        return hash((self.title, self.edits, self.safe))


class Finding:
    __slots__ = ("code", "start", "end", "message", "notes", "fix")
    code: str
    start: int
    end: int
    message: str
    notes: tuple[tuple[int, int, str], ...]
    fix: FixPlan | None

    __match_args__ = ("code", "start", "end", "message", "notes", "fix")

    def __init__(
        self,
        code: str,
        start: int,
        end: int,
        message: str,
        notes: tuple[tuple[int, int, str], ...] = (),
        fix: FixPlan | None = None,
    ) -> None:
        self.code = code
        self.start = start
        self.end = end
        self.message = message
        self.notes = notes
        self.fix = fix

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"code={self.code!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"message={self.message!r}, " f"notes={self.notes!r}, "
                f"fix={self.fix!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.code, self.start, self.end, self.message, self.notes, self.fix)
        theirs = (other.code, other.start, other.end, other.message, other.notes, other.fix)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.code, self.start, self.end, self.message, self.notes, self.fix))


__all__ = ["Edit", "Finding", "FixPlan"]
