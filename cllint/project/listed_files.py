"""Programs a host joins from a list of file names (issue 29).

Hosts that build one program from many files often write the names into a list first and join
them in a loop (Qt's `QStringList`, `std::vector<std::string>`, a Python list):

    headers.append("defines_cl.h");              // or push_back, `headers << "a.h" << "b.h"`,
    headers.append("algebra_cl.h");              // `headers += ["a.h"]`, `= {"a.h", "b.h"}`
    for (int i = 0; i < headers.size(); i++)
        code.append(Load(dir + headers.at(i)));  // each read and joined, in the list's order
    code.append(Load(dir + "engine.cl"));        // then files joined after them by name
    ... clCreateProgramWithSource(..., code ...)

The list may be filled in another function of the same file (passed by reference), so a
list is known by its name in its file. The program is the list's files in order, then the
files the same function joins into the same string after the loop, each named by a literal;
a file named by a computed expression (`formula + ".cl"`) is unknown and left out. A loop whose
body reads each file into a string of its own (one program per file) joins nothing.
"""

from __future__ import annotations

import re
from pathlib import Path

from cllint.analysis.lazy_re import lazy
from cllint.analysis.records import SlotRecord
from .brackets import closing_of, opening_before

# What a listed name may end with: OpenCL sources and the headers hosts read before them.
FILE_SUFFIXES = (".cl", ".clh", ".ocl", ".opencl", ".h", ".hpp", ".hh", ".inl", ".inc")
_LIT = rb"\"([^\"\n]{1,200})\"|'([^'\n]{1,200})'"
# A file name in quotes (found by its suffix's dot: the pattern starts with a literal byte)
_NAMED = lazy(rb"\.(?:cl|clh|ocl|opencl|h|hpp|hh|inl|inc)[\"']", re.I)
# What comes before a name written into a list: `list.append(`, `list->push_back(`, Java's
# `list.add(`, `list << `, `list += `, `list += [`, `list = {`, `list{`, `LIST = [`, `names[] = {`
_FILL_BEFORE = lazy(rb"([A-Za-z_]\w*)[ \t]*(?:\[[ \t\w]{0,20}\][ \t]*)?(?:(?:\.|->)[ \t]*(?:append|push_back|emplace_back|add)[ \t]*\(|<<|\+=|=(?!=)"
                    rb"|(?=\{))\s*[\[{(]?\s*\Z")
# ... or after another name of the same list: `{"a.h", "b.h"}`, `<< "a.h" << "b.h"`
_CHAINED = lazy(rb"[ \t\r\n]*(?:,|<<)[ \t\r\n]*\Z")
_LITERALS = lazy(_LIT)
_CPP_LOOP = lazy(rb"\b(?:for|foreach|Q_FOREACH|BOOST_FOREACH)[ \t]*\(")
_PY_LOOP = lazy(rb"^([ \t]*)for[ \t]+([A-Za-z_]\w*)[ \t]+in[ \t]+([A-Za-z_]\w*)[ \t]*:", re.M)
# `src = "".join(read(f) for f in FILES)` (its strings blanked): the joined string, the list
_PY_JOIN = lazy(rb"([A-Za-z_]\w*)[ \t]*=[ \t]*[^\n=]{0,40}?\.join\([^\n]*?\bfor[ \t]+[A-Za-z_]\w*"
                rb"[ \t]+in[ \t]+([A-Za-z_]\w*)[ \t]*\)")
_CONCAT = lazy(rb"([A-Za-z_]\w*)[ \t]*(?:\.[ \t]*append[ \t]*\(|\+=|<<(?![ \t]*(?:std::)?endl))")
_WORD = rb"(?<![\w.])%s(?!\w)"
_MAX_HOST = 4 * 1024 * 1024  # bytes: larger host files are generated tables, not build code


class ListedProgram(SlotRecord):
    """Files a host joins into one program through a list, in order: each a name as written
    and the host line that names it."""

    __slots__ = ("host", "line", "members")
    host: Path
    line: int  # the joining loop's line
    members: tuple[tuple[str, int], ...]

    __match_args__ = ("host", "line", "members")

    def __init__(self, host: Path, line: int, members: tuple[tuple[str, int], ...]) -> None:
        self.host = host
        self.line = line
        self.members = members


def _is_file_name(name: str) -> bool:
    return name.lower().endswith(FILE_SUFFIXES) and not name.startswith(".") and " " not in name and "%" not in name


def _literal(m: re.Match[bytes]) -> str:
    raw = m.group(1) if m.group(1) is not None else m.group(2)
    return raw.decode("utf-8", "replace")


def _fills(text: bytes) -> dict[bytes, list[tuple[int, str, int]]]:
    """Per list name, the file names written into it (offset, name, the list name's offset),
    in the order written."""
    out: dict[bytes, list[tuple[int, str, int]]] = {}
    last: tuple[int, bytes, int] | None = None  # the end of the last name written into a list, the list
    for m in _NAMED.finditer(text):
        quote = text[m.end() - 1:m.end()]
        start = text.rfind(quote, max(0, m.start() - 200), m.start())
        if start < 0 or b"\n" in text[start:m.end()]:
            continue
        name = text[start + 1:m.end() - 1].decode("utf-8", "replace")
        if not _is_file_name(name):
            continue
        window = text[max(0, start - 160):start].rstrip()
        if window[-1:] not in b"([{=<+,":  # (most are `#include "x.h"`: nothing before to read)
            continue
        owner = None
        if last is not None and last[0] <= start and _CHAINED.match(text, last[0], start):
            owner, at = last[1], last[2]
        else:
            before = _FILL_BEFORE.search(text, max(0, start - 160), start)
            if before is not None:
                owner, at = before.group(1), before.start(1)
        if owner is not None:
            out.setdefault(owner, []).append((start, name, at))
            last = (m.end(), owner, at)
    return out


def _close(code: bytes, at: int, opening: int, closing: int) -> int:
    """The offset after the bracket that closes the one at `at` (the text's end if none)."""
    end = closing_of(code, at, opening, closing)
    return len(code) if end is None else end + 1


def _cpp_function_end(code: bytes, at: int) -> int:
    """The end of the outermost block around `at` that a `)` opens: the function's body (a
    namespace's or class's block is not one)."""
    end = len(code)
    depth_starts: list[int] = []
    for i in range(at):
        c = code[i]
        if c == 0x7B:  # {
            depth_starts.append(i)
        elif c == 0x7D and depth_starts:
            depth_starts.pop()
    for start in depth_starts:
        head = code[max(0, start - 120):start].rstrip()
        head = re.sub(rb"(?:\b(?:const|override|final|noexcept|mutable)\b\s*)*\Z", b"", head).rstrip()
        if head.endswith(b")"):
            return _close(code, start, 0x7B, 0x7D)
    return end


def _statement(code: bytes, at: int, python: bool) -> int:
    """The end of the statement that starts at `at`."""
    if python:
        end = code.find(b"\n", at)
        return len(code) if end < 0 else end
    end = code.find(b";", at)
    return len(code) if end < 0 else end + 1


def _joined_after(text: bytes, code: bytes, string: bytes, start: int, end: int, python: bool,
                  region_start: int) -> list[tuple[int, str]]:
    """Files joined into `string` by name between `start` and `end` (offset, name): named by
    a literal in the statement, or in the value a variable it reads was last given in the
    function (`name = "ssao.cl"; path = dir + name; code.append(Load(path));`). A name that
    is computed (`formula + ".cl"`) is none: which file it reads is unknown."""
    out: list[tuple[int, str]] = []
    pattern = re.compile(_WORD % re.escape(string) + rb"[ \t]*(?:\.[ \t]*append[ \t]*\(|\+=|<<)")
    for m in pattern.finditer(code, start, end):
        stop = _statement(code, m.start(), python)
        first = m.start()
        if python:  # `with open("k.cl") as f:` on the line before `src += f.read()`
            before = text.rfind(b"\n", 0, text.rfind(b"\n", 0, m.start()))
            line = text[before + 1:m.start()]
            if line.lstrip().startswith(b"with ") and line.rstrip().endswith(b":"):
                first = before + 1
        found = _names_in(text, first, stop)
        if not found:
            found = _bound_names(text, code, code[m.end():stop], region_start, m.start(), python, 2)
        out.extend(found)
    return out


def _names_in(text: bytes, start: int, end: int) -> list[tuple[int, str]]:
    out = []
    for lit in _LITERALS.finditer(text, start, end):
        name = _literal(lit).lstrip("/\\")
        if _is_file_name(name) and not name.startswith("."):
            out.append((lit.start(), name))
    return out


def _bound_names(text: bytes, code: bytes, expression: bytes, region_start: int, at: int, python: bool,
                 depth: int) -> list[tuple[int, str]]:
    """The file name in the values the words of `expression` are given in the function before
    `at` (through `depth` assignments): one name only (a variable given two, in a `switch`'s
    arms, names no file the program surely reads)."""
    out: list[tuple[int, str]] = []
    for word in dict.fromkeys(re.findall(rb"(?<![\w.>])([A-Za-z_]\w*)(?![\w(])", expression)):
        for m in re.compile(_WORD % re.escape(word) + rb"[ \t]*=(?!=)").finditer(code, region_start, at):
            stop = _statement(code, m.end(), python)
            found = _names_in(text, m.end(), stop)
            if not found and depth > 1:
                found = _bound_names(text, code, code[m.end():stop], region_start, m.start(), python, depth - 1)
            out.extend(found)
    return out if len({name for _, name in out}) == 1 else []


def _line(text: bytes, at: int) -> int:
    return text.count(b"\n", 0, at) + 1


def listed_programs(path: Path, text: bytes) -> list[ListedProgram]:
    """The programs one host file joins from lists of file names."""
    if len(text) > _MAX_HOST:
        return []
    from cllint.analysis.source_kind import blank_comments_and_strings

    python = path.suffix.lower() == ".py"
    found = _fills(text)
    if not found:
        return []
    code = blank_comments_and_strings(text)
    if python:
        code = re.sub(rb"#[^\n]*", lambda m: b" " * len(m.group()), code)
    fills: dict[bytes, list[tuple[int, str]]] = {}
    for listed, names in found.items():  # (a list named in a comment fills nothing)
        kept = [(at, name) for at, name, owner in names if code[owner] != 32]
        if kept:
            fills[listed] = kept
    out: list[ListedProgram] = []
    for loop_at, listed, string, body_end, region_end in _loops(code, fills, python):
        members = [(at, name) for at, name in fills[listed] if at < loop_at] or list(fills[listed])
        region = _function_span(code, loop_at, python)
        inside = [(at, name) for at, name in members if region[0] <= at < region[1]]
        members = inside or members
        after = _joined_after(text, code, string, body_end, region_end, python, region[0])
        named = tuple((name, _line(text, at)) for at, name in (*members, *after))
        if len(named) >= 2:
            out.append(ListedProgram(path, _line(text, loop_at), named))
    return out


def _function_span(code: bytes, at: int, python: bool) -> tuple[int, int]:
    if python:
        start = code.rfind(b"\ndef ", 0, at)
        return (start + 1 if start >= 0 else 0), len(code)
    end = _cpp_function_end(code, at)
    start = _close_reverse(code, end)
    return start, end


def _close_reverse(code: bytes, end: int) -> int:
    """The offset of the `{` that the `}` before `end` closes."""
    return opening_before(code, end) or 0


def _loops(code: bytes, fills: dict[bytes, list[tuple[int, str]]], python: bool):  # noqa: ANN202
    """Loops over a filled list whose body joins each file into one string declared outside:
    (loop offset, list name, string name, body end, end of the enclosing function)."""
    names = set(fills)
    if python:
        for m in _PY_LOOP.finditer(code):
            listed = m.group(3)
            if listed not in names:
                continue
            indent = len(m.group(1).expandtabs())
            body_end = _py_block_end(code, m.end(), indent)
            string = _joining_string(code, m.end(), body_end, listed, m.group(2))
            if string is not None:
                yield m.start(), listed, string, body_end, _py_block_end(code, body_end, indent - 1)
        for m in _PY_JOIN.finditer(code):
            if m.group(2) in names:
                end = _statement(code, m.start(), True)
                yield m.start(), m.group(2), m.group(1), end, _py_block_end(code, end, _indent(code, m.start()) - 1)
        return
    for m in _CPP_LOOP.finditer(code):
        head_end = _close(code, m.end() - 1, 0x28, 0x29)
        head = code[m.end():head_end - 1]
        listed = next((n for n in names if re.search(_WORD % re.escape(n), head)), None)
        if listed is None:
            continue
        var = re.search(rb"([A-Za-z_]\w*)[ \t]*(?::(?!:)|,)[ \t]*" + re.escape(listed) + rb"\b", head)
        at = head_end
        while at < len(code) and code[at] in b" \t\r\n":
            at += 1
        body_end = _close(code, at, 0x7B, 0x7D) if code[at:at + 1] == b"{" else _statement(code, at, False)
        string = _joining_string(code, at, body_end, listed, var.group(1) if var else None)
        if string is not None:
            yield m.start(), listed, string, body_end, _cpp_function_end(code, m.start())


def _indent(code: bytes, at: int) -> int:
    """The indentation of the line `at` is on."""
    start = code.rfind(b"\n", 0, at) + 1
    line = code[start:at].expandtabs()
    return len(line) - len(line.lstrip())


def _py_block_end(code: bytes, at: int, indent: int) -> int:
    """The offset where the first non-blank line indented `indent` or less after `at` starts."""
    pos = code.find(b"\n", at)
    while pos >= 0:
        start = pos + 1
        end = code.find(b"\n", start)
        line = code[start:len(code) if end < 0 else end]
        if line.strip() and len(line.expandtabs()) - len(line.expandtabs().lstrip()) <= indent:
            return start
        pos = end
    return len(code)


def _joining_string(code: bytes, start: int, end: int, listed: bytes, var: bytes | None) -> bytes | None:
    """The string a loop body joins each listed file into: the body names the list's element
    (the list or the loop's variable) and appends to one string it does not declare; not a
    list of programs (`programs.append(cl.Program(ctx, read(f)).build())`)."""
    body = code[start:end]
    if not re.search(_WORD % re.escape(listed), body) and (var is None or not re.search(_WORD % re.escape(var), body)):
        return None
    for m in _CONCAT.finditer(body):
        string = m.group(1)
        if string in (listed, var) or string in (b"std", b"cout", b"cerr", b"qDebug", b"out", b"self"):
            continue
        statement = body[m.start():_statement(body, m.start(), b";" not in body)]
        if _BUILDS.search(statement) or _declared_as_list(code[:start], string):
            continue
        declared = re.search(rb"[\w>&*][ \t]+" + re.escape(string) + rb"[ \t]*(?:=|;|\{|\()", body)
        if declared is None:
            return string
    return None


# What builds a program from each file rather than joining them: `cl.Program(`, `clCreateProgramWithSource(`,
# `.build(`, `compile(`
_BUILDS = lazy(rb"(?<![\w])(?:Program|clCreateProgram\w*|build|compile|[Bb]uild[A-Z]\w*)[ \t]*\(")


def _declared_as_list(before: bytes, string: bytes) -> bool:
    """Whether `string` is declared a list (of programs, kernels...), not a string: `x = []`,
    `std::vector<cl_program> x`, `QList<...> x`."""
    name = re.escape(string)
    return re.search(rb"(?<![\w.])" + name + rb"[ \t]*=[ \t]*(?:\[|list\(|\{\s*\})"
                     rb"|(?:vector|List|list|deque|array)[ \t]*<[^;{}]*>[ \t&*]*" + name + rb"\b", before) is not None


def resolved(programs: list[ListedProgram], files: list[Path]) \
        -> list[tuple[ListedProgram, tuple[Path | None, ...], tuple[tuple[str, int], ...]]]:
    """Each program's members as workspace files (None: not known), and the members no file
    of the workspace has nor is generated from (`x_cl.h.in`) (name, host line). A name
    several files have is the one beside the program's other members, if exactly one is."""
    wanted = {Path(name).name for prog in programs for name, _ in prog.members}
    by_name: dict[str, list[Path]] = {}
    templates: set[str] = set()  # names a build generates from a template (`config_cl.h.in`)
    for f in files:
        if f.name in wanted:
            by_name.setdefault(f.name, []).append(f)
        elif "." in f.name and (stem := f.name.rsplit(".", 1)[0]) in wanted:
            templates.add(stem)
    out = []
    for prog in programs:
        found: list[Path | None] = []
        ambiguous: dict[int, list[Path]] = {}
        absent: list[tuple[str, int]] = []
        for i, (name, line) in enumerate(prog.members):
            tail = Path(name).parts
            hits = [f for f in by_name.get(tail[-1], []) if f.parts[-len(tail):] == tail]
            found.append(hits[0] if len(hits) == 1 else None)
            if len(hits) > 1:
                ambiguous[i] = hits
            elif not hits and tail[-1] not in templates:
                absent.append((name, line))
        folders = {f.parent for f in found if f is not None}
        for i, hits in ambiguous.items():
            near = [f for f in hits if f.parent in folders]
            found[i] = near[0] if len(near) == 1 else None
        out.append((prog, tuple(found), tuple(absent)))
    return out


def missing_reports(path: str, text: bytes, entries: tuple[tuple[str, int], ...]) -> list:  # list[Diagnostic]
    """CL002 on each host line that lists a file no file of the workspace is, its name's range."""
    from cllint.analysis.diagnostics import Diagnostic, Severity, Span

    lines = text.split(b"\n")
    starts = [0]
    for line in lines[:-1]:
        starts.append(starts[-1] + len(line) + 1)
    out = []
    for name, line in entries:
        if not 1 <= line <= len(lines):
            continue
        at = lines[line - 1].find(name.encode())
        start = starts[line - 1] + max(at, 0)
        end = start + len(name.encode()) if at >= 0 else starts[line - 1] + len(lines[line - 1])
        out.append(Diagnostic("CL002", Severity.WARNING,
                              f"'{name}' file not found: this list joins it into an OpenCL program",
                              Span(path, start, end)))
    return out


LIST_HOSTS = frozenset({".c", ".cc", ".cpp", ".cxx", ".c++", ".py", ".java"})


def workspace_lists(hosts: dict[Path, bytes], files: list[Path]) \
        -> list[tuple[ListedProgram, tuple[Path | None, ...], tuple[tuple[str, int], ...]]]:
    """The programs the workspace's host code joins from lists, resolved (see `resolved`)."""
    return resolved([prog for p, t in hosts.items() if p.suffix.lower() in LIST_HOSTS
                     for prog in listed_programs(p, t)], files)


def missing_by_host(listed) -> dict[Path, tuple[tuple[str, int], ...]]:  # noqa: ANN001
    out: dict[Path, list[tuple[str, int]]] = {}
    for prog, _, absent in listed:
        for entry in absent:
            if entry not in out.setdefault(prog.host, []):
                out[prog.host].append(entry)
    return {p: tuple(v) for p, v in out.items()}


def joined_by_lists(listed, sources: dict[Path, bytes]) \
        -> dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]]:  # noqa: ANN001
    """Per source a host list joins after other files (listed_files.py): those files, in
    order, and CL007's note (the first list naming the source wins). A member several files
    could be ends what is known of the program's order; one no file is (reported on the host
    line) is left out."""
    out: dict[Path, tuple[tuple[str, ...], tuple[str, int, int]]] = {}
    for prog, members, absent in listed:
        before: list[Path] = []
        gone = {name for name, _ in absent}
        for (name, _), path in zip(prog.members, members):
            if path is None:
                if name in gone:
                    continue
                break
            if path in before:
                continue
            if before and path in sources and path not in out:
                shown = ", ".join(p.name for p in before[:3]) + (f" and {len(before) - 3} more" if len(before) > 3 else "")
                out[path] = (tuple(str(p) for p in before),
                             (f"read after {shown}, as {prog.host.name}:{prog.line} joins them into one program",
                              -1, -1))
            before.append(path)
    return out
