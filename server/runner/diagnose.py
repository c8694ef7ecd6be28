"""Compiler build logs and Oclgrind reports -> `Diagnostic`s on the user's files.

The worker prepends `#line 1 "<path>"` to the source so compilers that honour it name the
real file; ones that don't (Oclgrind's front end says 'input.cl') are mapped back to the
main file, one line up. Included files keep their own paths.

Codes:
    CL901  build error reported by the device compiler
    CL902  build warning reported by the device compiler
    CL910  work-group or work-item divergence at a barrier (Oclgrind)
    CL911  data race (Oclgrind)
    CL912  out-of-bounds or invalid memory access (Oclgrind)
    CL913  use of uninitialised memory (Oclgrind)
    CL919  another error Oclgrind reported while the kernel ran
"""

from __future__ import annotations

import re
from pathlib import Path

from cllint.analysis.diagnostics import Diagnostic, Note, Severity, Span

PREPENDED_LINES = 1

_CLANG = re.compile(r"^(?P<file>[^\s:][^:]*):(?P<line>\d+):(?P<col>\d+): (?P<sev>fatal error|error|warning|note): (?P<msg>.*)$")
_POCL = re.compile(r"^(?P<sev>error|warning|note): (?P<file>[^:]+):(?P<line>\d+):(?P<col>\d+): (?P<msg>.*)$")
_AT = re.compile(r"At line (?P<line>\d+)(?: \(column (?P<col>\d+)\))? of (?P<file>.+?):\s*$")


class Files:
    """Finds the file a report names and turns (line, column) into a byte span."""

    def __init__(self, main: Path, include_dirs: tuple[str, ...] = ()) -> None:
        self.main = main.resolve()
        self.include_dirs = [Path(d) for d in include_dirs]
        self._bytes: dict[Path, bytes] = {}

    def find(self, name: str) -> tuple[Path, int]:
        """(file, line offset to add) for a file name as a compiler printed it."""
        p = Path(name)
        if p.is_absolute() and p.exists():
            return p.resolve(), 0
        if p.name == self.main.name:
            return self.main, 0
        for d in [self.main.parent, *self.include_dirs]:
            if (d / p).exists():
                return (d / p).resolve(), 0
        return self.main, -PREPENDED_LINES  # 'input.cl', '<source>', '<kernel>'

    def span(self, file: Path, line: int, col: int) -> Span:
        data = self._bytes.get(file)
        if data is None:
            try:
                data = self._bytes[file] = file.read_bytes()
            except OSError:
                data = self._bytes[file] = b""
        lines = data.split(b"\n")
        line = min(max(line, 1), max(len(lines), 1))
        start = sum(len(x) + 1 for x in lines[: line - 1]) + max(col - 1, 0)
        start = min(start, len(data))
        m = re.match(rb"[A-Za-z0-9_]+", data[start:])
        return Span(str(file), start, start + (m.end() if m else min(1, len(data) - start)))

    def locate(self, name: str, line: int, col: int) -> Span:
        file, offset = self.find(name)
        return self.span(file, line + offset, col)


def build_log(log: str, files: Files, failed: bool) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    for raw in log.splitlines():
        m = _CLANG.match(raw.strip()) or _POCL.match(raw.strip())
        if not m:
            continue
        span = files.locate(m["file"], int(m["line"]), int(m["col"]))
        msg = m["msg"].strip()
        if m["sev"] == "note":
            if out:
                prev = out[-1]
                out[-1] = Diagnostic(prev.code, prev.severity, prev.message, prev.span,
                                     prev.notes + (Note(span, msg),))
            continue
        error = m["sev"] != "warning"
        out.append(Diagnostic("CL901" if error else "CL902",
                              Severity.ERROR if error else Severity.WARNING, msg, span))
    if failed and not any(d.code == "CL901" for d in out):
        first = next((x.strip() for x in log.splitlines() if x.strip()), "no build log")
        out.append(Diagnostic("CL901", Severity.ERROR, f"device compiler failed: {first}",
                              files.span(files.main, 1, 1)))
    return out


def _classify(header: str) -> str:
    h = header.lower()
    if "divergence" in h:
        return "CL910"
    if "data race" in h:
        return "CL911"
    if "uninitiali" in h:
        return "CL913"
    if "invalid read" in h or "invalid write" in h or "out-of-bounds" in h or "out of bounds" in h:
        return "CL912"
    return "CL919"


def oclgrind(stderr: str, files: Files) -> list[Diagnostic]:
    """Blocks of Oclgrind's report: a header line, then tab-indented detail lines."""
    out: list[Diagnostic] = []
    seen: set[tuple[str, Span]] = set()
    block: list[str] = []
    for line in stderr.splitlines() + [""]:
        if line.strip() and not line.startswith(("\t", " ")) and block:
            _flush(block, files, out, seen)
            block = []
        if line.strip():
            block.append(line)
    if block:
        _flush(block, files, out, seen)
    return out


def _flush(block: list[str], files: Files, out: list[Diagnostic], seen: set) -> None:
    header = block[0].strip().rstrip(":")
    code = _classify(header)
    if code == "CL919" and not any("Kernel:" in x for x in block):
        return  # not an Oclgrind report (build chatter, driver messages)
    kernel = next((x.split("Kernel:", 1)[1].strip() for x in block if "Kernel:" in x), "")
    detail = next((x.strip() for x in block[1:] if x.strip().startswith("Only ")), "")
    spots = [m for x in block if (m := _AT.search(x.strip()))]
    spans = [files.locate(m["file"], int(m["line"]), int(m["col"] or 1)) for m in spots]
    if not spans:
        spans = [files.span(files.main, 1, 1)]
    if (code, spans[0]) in seen:
        return  # one report per place: races repeat for every pair of work-items
    seen.add((code, spans[0]))
    text = header[0].lower() + header[1:]
    text = re.sub(r" at (global|local|private|constant) memory address 0x[0-9a-f]+", r" in \1 memory", text)
    if kernel:
        text += f" in kernel '{kernel}'"
    if detail:
        text += f": {detail[0].lower()}{detail[1:]}"
    notes = tuple(Note(s, "other work-item here") for s in spans[1:] if s != spans[0])
    out.append(Diagnostic(code, Severity.ERROR, text, spans[0], notes))
