"""Output formats of `cllint check`: text, json, sarif, github."""

from __future__ import annotations

import os
import sys
from collections import Counter
from pathlib import Path
from typing import TextIO

from cllint import __version__
from cllint.analysis.diagnostics import Diagnostic, Severity
from cllint.analysis.registry import all_rules
from cllint.cli.locate import LineIndex

DOCS_URL = "https://github.com/cllint/cllint/blob/main/docs/rules/{code}.md"


class FileResult:
    path: str  # as the user named it
    source: bytes
    diagnostics: list[Diagnostic]
    error: str | None  # the file could not be read

    __match_args__ = ("path", "source", "diagnostics", "error")

    def __init__(
        self,
        path: str,
        source: bytes,
        diagnostics: list[Diagnostic],
        error: str | None = None,
    ) -> None:
        self.path = path
        self.source = source
        self.diagnostics = diagnostics
        self.error = error

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"path={self.path!r}, " f"source={self.source!r}, "
                f"diagnostics={self.diagnostics!r}, " f"error={self.error!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.path, self.source, self.diagnostics, self.error)
        theirs = (other.path, other.source, other.diagnostics, other.error)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def index(self) -> LineIndex:
        return LineIndex(self.source)


def _color(enabled: bool):
    def paint(code: str, text: str) -> str:
        return f"\x1b[{code}m{text}\x1b[0m" if enabled else text
    return paint


def use_color(stream: TextIO) -> bool:
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def text(results: list[FileResult], out: TextIO, *, color: bool) -> None:
    paint = _color(color)
    sev_color = {Severity.ERROR: "1;31", Severity.WARNING: "1;33", Severity.INFO: "1;36", Severity.HINT: "2"}
    for r in results:
        if not r.diagnostics:
            continue
        idx = r.index()
        for d in r.diagnostics:
            line, col = idx.line_col(d.span.start)
            end_line, end_col = idx.line_col(d.span.end)
            head = f"{paint('1', f'{r.path}:{line}:{col}:')} {paint(sev_color[d.severity], d.code)} {d.message}"
            print(head, file=out)
            src = idx.line_text(line)
            width = max(1, (end_col - col) if end_line == line else len(src) - col + 1)
            gutter = " " * len(str(line))
            print(f"{gutter} |", file=out)
            print(f"{line} | {src}", file=out)
            print(f"{gutter} | {' ' * (col - 1)}{paint(sev_color[d.severity], '^' * width)}", file=out)
            for note in d.notes:
                if note.span.file == d.span.file:
                    nl, nc = idx.line_col(note.span.start)
                    print(f"  {r.path}:{nl}:{nc}: {paint('1;36', 'note:')} {note.message}", file=out)
                else:
                    print(f"  {note.span.file}: {paint('1;36', 'note:')} {note.message}", file=out)
            if d.fix is not None:
                kind = {"safe": "", "unsafe": " (unsafe)", "display-only": " (manual)"}[d.fix.applicability.value]
                print(f"  = help: {d.fix.title}{kind}", file=out)
            print(file=out)


def _edits(d: Diagnostic, idx: LineIndex) -> list[dict]:
    out = []
    for e in d.fix.edits if d.fix else ():
        line, col = idx.line_col(e.span.start)
        end_line, end_col = idx.line_col(e.span.end)
        out.append({"line": line, "column": col, "end_line": end_line, "end_column": end_col,
                    "content": e.replacement})
    return out


def as_json(results: list[FileResult]) -> list[dict]:
    rows = []
    for r in results:
        idx = r.index()
        for d in r.diagnostics:
            line, col = idx.line_col(d.span.start)
            end_line, end_col = idx.line_col(d.span.end)
            row = {
                "path": r.path, "line": line, "column": col, "end_line": end_line,
                "end_column": end_col, "code": d.code, "severity": d.severity.value,
                "message": d.message,
            }
            if d.fix is not None:
                row["fix"] = {"title": d.fix.title, "applicability": d.fix.applicability.value,
                              "edits": _edits(d, idx)}
            rows.append(row)
    return rows


def json_output(results: list[FileResult], out: TextIO) -> None:
    import json  # the json and sarif formats only: text, the default, needs none (~4M instructions)

    json.dump(as_json(results), out, indent=2)
    out.write("\n")


def github(results: list[FileResult], out: TextIO) -> None:
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "notice", Severity.HINT: "notice"}
    for row, d in zip(as_json(results), (d for r in results for d in r.diagnostics)):
        msg = row["message"].replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
        print(
            f"::{level[d.severity]} file={row['path']},line={row['line']},col={row['column']},"
            f"endLine={row['end_line']},endColumn={row['end_column']},title={row['code']}::{row['code']} {msg}",
            file=out,
        )


def sarif(results: list[FileResult], out: TextIO) -> None:
    import hashlib  # SARIF's fingerprints only: hashlib loads OpenSSL (~5 ms of start-up)
    import json

    rules = all_rules()
    ids = list(rules)
    level = {Severity.ERROR: "error", Severity.WARNING: "warning", Severity.INFO: "note", Severity.HINT: "note"}
    driver_rules = [
        {
            "id": code,
            "name": cls.name,
            "shortDescription": {"text": cls.summary() or cls.name},
            "fullDescription": {"text": cls.doc()},
            "helpUri": DOCS_URL.format(code=code),
            "defaultConfiguration": {"level": level[cls.severity]},
        }
        for code, cls in rules.items()
    ]
    sarif_results = []
    for r in results:
        idx = r.index()
        uri = Path(r.path).as_posix()
        for d in r.diagnostics:
            line, col = idx.line_col(d.span.start)
            end_line, end_col = idx.line_col(d.span.end)
            region = {"startLine": line, "startColumn": col, "endLine": end_line, "endColumn": max(end_col, col)}
            line_hash = hashlib.sha256(
                f"{d.code}:{idx.line_text(line).strip()}:{d.message}".encode()
            ).hexdigest()[:32]
            result = {
                "ruleId": d.code,
                "level": level[d.severity],
                "message": {"text": d.message},
                "locations": [{"physicalLocation": {
                    "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"}, "region": region}}],
                "partialFingerprints": {"primaryLocationLineHash": line_hash},
            }
            if d.code in ids:
                result["ruleIndex"] = ids.index(d.code)
            related = []
            for i, note in enumerate(d.notes):
                if note.span.file == d.span.file:
                    nl, nc = idx.line_col(note.span.start)
                    related.append({"id": i, "message": {"text": note.message}, "physicalLocation": {
                        "artifactLocation": {"uri": uri, "uriBaseId": "%SRCROOT%"},
                        "region": {"startLine": nl, "startColumn": nc}}})
            if related:
                result["relatedLocations"] = related
            sarif_results.append(result)
    doc = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "cllint", "version": __version__,
                                "informationUri": "https://github.com/cllint/cllint", "rules": driver_rules}},
            "results": sarif_results,
        }],
    }
    json.dump(doc, out, indent=2)
    out.write("\n")


def statistics(results: list[FileResult], out: TextIO) -> None:
    counts = Counter((d.code, d.severity.value) for r in results for d in r.diagnostics)
    rules = all_rules()
    for (code, _sev), n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        name = rules[code].name if code in rules else ""
        print(f"{n:5d}\t{code}\t{name}", file=out)


def summary_line(results: list[FileResult], fixed: int, out: TextIO = sys.stderr) -> None:
    n = sum(len(r.diagnostics) for r in results)
    files = len(results)
    fixed_text = f", fixed {fixed}" if fixed else ""
    if n:
        print(f"Found {n} problem{'s' * (n != 1)} in {files} file{'s' * (files != 1)}{fixed_text}.", file=out)
    elif fixed:
        print(f"Fixed {fixed} problem{'s' * (fixed != 1)}; no problems left.", file=out)
