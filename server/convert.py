"""The only place that converts between LSP positions and byte offsets, and between
cllint's `Diagnostic`/`Fix` and lsprotocol types.

Positions are (line, character) where `character` counts code units of the negotiated
encoding (UTF-16 unless the client asked for UTF-8 or UTF-32). Lines end at '\\n'; a
trailing '\\r' is not addressable. Positions past the end of a line clamp to the line's
end and lines past the end of the file clamp to the end of the file, as the LSP asks.
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_right

from lsprotocol import types
from lsprotocol.converters import get_converter

from cllint.analysis.db import TextEdit
from cllint.analysis.diagnostics import Applicability, Diagnostic, Fix, Severity, Span, Tag
from cllint.analysis.registry import rule as rule_for

RULE_DOCS_URL = "https://github.com/cllint/cllint/blob/main/docs/rules/{code}.md"
SOURCE = "cllint"

UTF8, UTF16, UTF32 = "utf-8", "utf-16", "utf-32"
_CONVERTER = get_converter()

_SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}
_TAGS = {Tag.UNNECESSARY: types.DiagnosticTag.Unnecessary, Tag.DEPRECATED: types.DiagnosticTag.Deprecated}


def _decode(data: bytes) -> tuple[str, str]:
    """`data` as characters, and the error handler that encodes each back to its own bytes.
    The client's UTF-16 text may hold lone surrogates, stored as 'surrogatepass' UTF-8 (three
    bytes, one unit); other invalid bytes (never sent by a client) count one unit each."""
    try:
        return data.decode("utf-8", "surrogatepass"), "surrogatepass"
    except UnicodeDecodeError:
        return data.decode("utf-8", "surrogateescape"), "surrogateescape"


def _units(text: str, encoding: str) -> int:
    if encoding == UTF32:
        return len(text)
    if encoding == UTF8:
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text) + sum(1 for ch in text if ord(ch) > 0xFFFF)


class LineIndex:
    """A document's bytes plus the offsets where its lines start; edits keep both in step."""

    def __init__(self, text: bytes, encoding: str = UTF16) -> None:
        self.text = text
        self.encoding = encoding
        # Machine integers, not a list of int objects: a fifth of the memory, for every open file.
        self._starts = array("q", [0, *_line_starts(text, 0, len(text))])
        # Offsets below this have the positions they had at the last `mark()`.
        self.unchanged_below = 0

    def mark(self) -> None:
        self.unchanged_below = 1 << 62

    @property
    def line_count(self) -> int:
        return len(self._starts)

    def _line_bounds(self, line: int) -> tuple[int, int]:
        start = self._starts[line]
        end = self._starts[line + 1] - 1 if line + 1 < len(self._starts) else len(self.text)
        if end > start and self.text[end - 1 : end] == b"\r":
            end -= 1
        return start, end

    def offset(self, pos: types.Position) -> int:
        """Byte offset of an LSP position (clamped into the document)."""
        if pos.line >= len(self._starts):
            return len(self.text)
        start, end = self._line_bounds(max(pos.line, 0))
        line = self.text[start:end]
        want = max(pos.character, 0)
        if line.isascii() or self.encoding == UTF8:
            col = min(want, len(line))
            if self.encoding == UTF8:  # never split a UTF-8 sequence
                while col < len(line) and (line[col] & 0xC0) == 0x80:
                    col += 1
            return start + col
        count, col = 0, start
        chars, errors = _decode(line)
        for ch in chars:
            if count >= want:
                return col
            count += _units(ch, self.encoding)
            col += len(ch.encode("utf-8", errors))
        return end

    def line_col(self, offset: int) -> tuple[int, int]:
        """(line, character) of a byte offset, clamped into the document."""
        offset = min(max(offset, 0), len(self.text))
        line = bisect_right(self._starts, offset) - 1
        start, end = self._line_bounds(line)
        prefix = self.text[start : min(offset, end)]
        if prefix.isascii() or self.encoding == UTF8:
            return line, len(prefix)
        return line, _units(_decode(prefix)[0], self.encoding)

    def position(self, offset: int) -> types.Position:
        return types.Position(*self.line_col(offset))

    def range(self, start: int, end: int) -> types.Range:
        return types.Range(self.position(start), self.position(end))

    def span_range(self, span: Span) -> types.Range:
        return self.range(span.start, span.end)

    def range_json(self, start: int, end: int) -> dict:
        (l1, c1), (l2, c2) = self.line_col(start), self.line_col(end)
        return {"start": {"line": l1, "character": c1}, "end": {"line": l2, "character": c2}}

    def to_edit(self, change: types.TextDocumentContentChangePartial) -> TextEdit:
        """The byte edit an incremental LSP change makes to the current text."""
        start, end = self.offset(change.range.start), self.offset(change.range.end)
        start, end = min(start, end), max(start, end)
        return TextEdit(start, end, change.text.encode("utf-8", "surrogatepass"))

    def apply(self, edit: TextEdit) -> None:
        """Update text and line starts after `edit` (only the lines it touched are rescanned)."""
        text = self.text[: edit.start] + edit.new_text + self.text[edit.old_end :]
        delta = len(edit.new_text) - (edit.old_end - edit.start)
        first = bisect_right(self._starts, edit.start)  # starts <= edit.start are kept
        last = bisect_right(self._starts, edit.old_end)  # starts after the old end shift
        middle = array("q", _line_starts(text, edit.start, edit.start + len(edit.new_text)))
        tail = self._starts[last:]
        self._starts[first:] = middle + (array("q", [s + delta for s in tail]) if delta else tail)
        self.text = text
        self.unchanged_below = min(self.unchanged_below, edit.start)


def _line_starts(text: bytes, lo: int, hi: int) -> list[int]:
    """Line starts created by newlines in text[lo:hi]."""
    out: list[int] = []
    i = text.find(b"\n", lo, hi)
    while i >= 0:
        out.append(i + 1)
        i = text.find(b"\n", i + 1, hi)
    return out


def apply_changes(index: LineIndex, changes: list) -> tuple[list[TextEdit], bytes | None]:
    """Byte edits for LSP content changes, applied to `index` as it goes; a whole-document
    change returns its text instead (then edits are empty)."""
    edits: list[TextEdit] = []
    full: bytes | None = None
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangeWholeDocument) or getattr(change, "range", None) is None:
            full = change.text.encode("utf-8", "surrogatepass")
            index.__init__(full, index.encoding)  # type: ignore[misc]
            edits.clear()
            continue
        edit = index.to_edit(change)
        index.apply(edit)
        edits.append(edit)
    return edits, full


# -- diagnostics -----------------------------------------------------------------------


def code_description(code: str) -> types.CodeDescription:
    return types.CodeDescription(href=RULE_DOCS_URL.format(code=code))


def to_lsp_json(d: Diagnostic, index: LineIndex, index_for=None) -> dict:
    """The LSP `Diagnostic` as JSON, made directly: a keystroke publishes every diagnostic
    of the file, and lsprotocol's converter costs more than the analysis of the edit.
    `index_for(file) -> LineIndex | None` resolves notes in other files."""
    out = {"range": index.range_json(d.span.start, d.span.end), "message": d.message,
           "severity": _SEVERITY.get(d.severity, types.DiagnosticSeverity.Warning).value, "code": d.code,
           "codeDescription": {"href": RULE_DOCS_URL.format(code=d.code)}, "source": SOURCE}
    tags = [_TAGS[t].value for t in d.tags if t in _TAGS]
    if tags:
        out["tags"] = tags
    if d.notes:
        related = []
        for note in d.notes:
            idx = index if note.span.file == d.span.file else (index_for(note.span.file) if index_for else None)
            rng = idx.range_json(note.span.start, note.span.end) if idx else {
                "start": {"line": 0, "character": 0}, "end": {"line": 0, "character": 0}}
            related.append({"location": {"uri": note.span.file, "range": rng}, "message": note.message})
        out["relatedInformation"] = related
    return out


class JsonCache:
    """The LSP JSON text of the diagnostics last published for a document. A diagnostic
    still there, before every edit since, reads the same; one that moved (it follows the
    edit) but keeps its lines and columns (an edit within one line leaves the lines after
    it alone) reads the same too. Most of a keystroke's diagnostics are one or the other.
    Text only: it is what gets sent, and a third of the memory of objects."""

    def __init__(self) -> None:
        self._made: dict[Diagnostic, str] = {}
        self._at: dict[tuple, str] = {}  # by what the JSON says: content and positions

    def convert(self, diags: list[Diagnostic], index: LineIndex, index_for=None) -> list[str]:
        """Each diagnostic's JSON text (ASCII: non-ASCII is escaped)."""
        stable, old, old_at, made, at = index.unchanged_below, self._made, self._at, {}, {}
        out = []
        for d in diags:
            same_file = all(n.span.file == d.span.file for n in d.notes)
            j = old.get(d) if same_file and d.span.end < stable and all(
                n.span.end < stable for n in d.notes) else None
            key = None
            if j is None and same_file:
                key = (d.code, d.severity, d.message, d.tags, index.line_col(d.span.start),
                       index.line_col(d.span.end), tuple((n.message, index.line_col(n.span.start),
                                                          index.line_col(n.span.end)) for n in d.notes))
                j = old_at.get(key)
            if j is None:
                j = json.dumps(to_lsp_json(d, index, index_for), separators=(",", ":"))
            made[d] = j
            if key is not None:
                at[key] = j
            out.append(j)
        self._made, self._at = made, at
        index.mark()
        return out


def from_lsp_json(data: dict) -> types.Diagnostic:
    return _CONVERTER.structure(data, types.Diagnostic)


def to_lsp_diagnostic(d: Diagnostic, index: LineIndex, index_for=None) -> types.Diagnostic:
    return from_lsp_json(to_lsp_json(d, index, index_for))


def lsp_to_json(d: types.Diagnostic) -> dict:
    return _CONVERTER.unstructure(d)


# -- code actions ----------------------------------------------------------------------


def _workspace_edit(uri: str, index: LineIndex, edits) -> types.WorkspaceEdit:
    return types.WorkspaceEdit(changes={uri: [
        types.TextEdit(index.range(e.span.start, e.span.end), e.replacement) for e in edits]})


def fix_action(uri: str, d: Diagnostic, lsp_diag: types.Diagnostic, index: LineIndex) -> types.CodeAction | None:
    """A quick fix: SAFE is preferred, UNSAFE offered, DISPLAY_ONLY never carries an edit."""
    fix: Fix | None = d.fix
    if fix is None:
        return None
    if fix.applicability is Applicability.DISPLAY_ONLY:
        return types.CodeAction(title=fix.title, kind=types.CodeActionKind.QuickFix, diagnostics=[lsp_diag],
                                disabled=types.CodeActionDisabled(reason="shown for information only"))
    safe = fix.applicability is Applicability.SAFE
    return types.CodeAction(
        title=fix.title if safe else f"{fix.title} (unsafe)",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diag],
        is_preferred=safe or None,
        edit=_workspace_edit(uri, index, fix.edits),
    )


def suppress_action(uri: str, code: str, lsp_diag: types.Diagnostic, index: LineIndex,
                    edit: tuple[int, int, str]) -> types.CodeAction:
    start, end, text = edit
    return types.CodeAction(
        title=f"Suppress {code} on this line",
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[lsp_diag],
        edit=types.WorkspaceEdit(changes={uri: [types.TextEdit(index.range(start, end), text)]}),
    )


def rule_name(code: str) -> str | None:
    r = rule_for(code)
    return r.name if r else None
