"""Line-based scanner for preprocessing directives.

The tree-sitter grammar reads conditional groups only partly structurally, so the preprocessor
view is built from the text. The scanner skips comments and string/char literals outside
directives (a `#` inside `/* ... */` is not a directive) and reads a directive up to the end of
its logical line: `\\`-newline continuations and block comments that span lines belong to it.

All offsets are byte offsets into the UTF-8 source; invalid UTF-8 is decoded with replacement
characters in the text fields and never raises.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["Directive", "Pragma", "scan_directives", "blank_comments"]

# Outside directives only these constructs matter: a directive start at the beginning of a
# line, and comments/literals that could hide a `#` or a newline. An unterminated block comment
# runs to the end of the file (`.*` alternative), so no quadratic rescans on hostile input.
_MAIN = re.compile(
    rb"""
    (?P<dir>^[ \t\f\v]*\#)
    | /\*(?:.*?\*/|.*)
    | //(?:[^\n\\]++|\\\r?\n|\\)*+
    | "(?:[^"\\\n]++|\\.)*+"?
    | '(?:[^'\\\n]++|\\.)*+'?
    """,
    re.MULTILINE | re.DOTALL | re.VERBOSE,
)

# The rest of a directive's logical line, from just after the `#`.
_BODY = re.compile(
    rb"""
    (?:
      [^\n/"'\\]++
    | /\*(?:.*?\*/|.*)
    | //(?:[^\n\\]++|\\\r?\n|\\)*+
    | "(?:[^"\\\n]++|\\.)*+"?
    | '(?:[^'\\\n]++|\\.)*+'?
    | \\\r?\n
    | [/\\]
    )*+
    """,
    re.DOTALL | re.VERBOSE,
)

# Inside a directive: what becomes blank before the arguments are read (same length, so
# offsets keep mapping 1:1 onto the file).
_BLANKABLE = re.compile(
    rb"""/\*(?:.*?\*/|.*)|//[^\n]*|\\\r?\n|"(?:[^"\\\n]++|\\.)*+"?|'(?:[^'\\\n]++|\\.)*+'?""",
    re.DOTALL,
)

_IDENT = re.compile(rb"[A-Za-z_][A-Za-z0-9_]*")
_WS = re.compile(rb"[ \t\f\v\r\n]*")

KINDS = frozenset(
    {
        "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif",
        "define", "undef", "include", "pragma", "error", "warning", "line",
    }
)  # fmt: skip


def _blank(match: re.Match[bytes]) -> bytes:
    token = match.group(0)
    if token[:1] in (b'"', b"'"):
        return token  # literals stay: `#include "a//b.h"`, `#define S "/*"`
    return re.sub(rb"[^\n]", b" ", token)


def blank_comments(chunk: bytes) -> bytes:
    """Replace comments and line continuations with spaces, keeping length and literals."""
    return _BLANKABLE.sub(_blank, chunk)


@dataclass(frozen=True, slots=True)
class Pragma:
    """A recognised `#pragma OPENCL ...`; other pragmas keep `kind == "other"`."""

    kind: str  # "extension" | "fp_contract" | "once" | "other"
    name: str | None = None  # extension name or "all"; FP_CONTRACT switch
    behavior: str | None = None  # "enable" | "disable" | "require" | "warn" ...


@dataclass(frozen=True, slots=True)
class Directive:
    kind: str  # one of KINDS, "null" for a lone `#`, or "other"
    start: int  # offset of the line start (indentation included)
    end: int  # end of the logical line, newline excluded
    keyword: str  # as written: "ifdef", "elif", "pragma", "" for a null directive
    args: str  # argument text with comments blanked, stripped
    args_start: int  # offset of `args` in the file
    name: str | None = None  # macro name / identifier argument
    name_start: int = -1
    name_end: int = -1
    params: tuple[str, ...] | None = None  # define: None for object-like
    variadic: bool = False
    body: str = ""  # define: replacement text, whitespace-collapsed
    path: str | None = None  # include: the path between the delimiters
    angled: bool = False  # include: `<...>`
    path_start: int = -1  # include: span of the path text (delimiters included)
    path_end: int = -1
    pragma: Pragma | None = None


def scan_directives(text: bytes) -> list[Directive]:
    """All directives of `text` in order; never raises."""
    out: list[Directive] = []
    pos = 0
    size = len(text)
    search = _MAIN.search
    while pos < size:
        m = search(text, pos)
        if m is None:
            break
        if m.group("dir") is None:
            pos = m.end()
            continue
        hash_end = m.end()
        body = _BODY.match(text, hash_end)
        end = body.end() if body else hash_end
        out.append(_read(text, m.start(), hash_end, end))
        pos = end if end > m.start() else m.start() + 1
    return out


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _read(text: bytes, start: int, hash_end: int, end: int) -> Directive:
    clean = blank_comments(text[hash_end:end])
    ws = _WS.match(clean).end()  # type: ignore[union-attr]
    kw = _IDENT.match(clean, ws)
    if kw is None:
        rest = clean.strip()
        kind = "null" if not rest else "other"
        return Directive(kind, start, end, "", _decode(rest), hash_end + ws)
    keyword = _decode(kw.group(0))
    kind = keyword if keyword in KINDS else "other"
    a = kw.end() + _WS.match(clean, kw.end()).end() - kw.end()  # type: ignore[union-attr]
    args_raw = clean[a:].rstrip()
    args = _decode(args_raw)
    args_start = hash_end + a
    base = Directive(kind, start, end, keyword, args, args_start)
    if kind in ("ifdef", "ifndef", "elifdef", "elifndef", "undef", "define"):
        name = _IDENT.match(args_raw)
        if name is None:
            return base
        fields: dict[str, object] = {
            "name": _decode(name.group(0)),
            "name_start": args_start + name.start(),
            "name_end": args_start + name.end(),
        }
        if kind == "define":
            fields.update(_read_define(args_raw, name.end()))
        return _replace(base, fields)
    if kind == "include":
        return _replace(base, _read_include(args_raw, args_start))
    if kind == "pragma":
        return _replace(base, {"pragma": _read_pragma(args)})
    return base


def _replace(d: Directive, fields: dict[str, object]) -> Directive:
    from dataclasses import replace

    return replace(d, **fields)  # type: ignore[arg-type]


def _read_define(args: bytes, name_end: int) -> dict[str, object]:
    # Function-like only when `(` follows the name with no space (C99 6.10.3p3).
    if args[name_end : name_end + 1] != b"(":
        return {"params": None, "body": _collapse(args[name_end:])}
    close = args.find(b")", name_end)
    if close < 0:
        return {"params": (), "body": ""}  # malformed; keep it function-like and empty
    params: list[str] = []
    variadic = False
    for raw in args[name_end + 1 : close].split(b","):
        p = raw.strip()
        if p == b"...":
            variadic = True
        elif p.endswith(b"..."):
            variadic = True
            params.append(_decode(p[:-3].strip()))
        elif p:
            params.append(_decode(p))
    return {"params": tuple(params), "variadic": variadic, "body": _collapse(args[close + 1 :])}


def _collapse(raw: bytes) -> str:
    return " ".join(_decode(raw).split())


def _read_include(args: bytes, args_start: int) -> dict[str, object]:
    if args[:1] == b"<":
        close = args.find(b">", 1)
        angled = True
    elif args[:1] == b'"':
        close = args.find(b'"', 1)
        angled = False
    else:
        return {}  # computed include (`#include MACRO`): not resolved
    if close < 0:
        close = len(args)
        stop = close
    else:
        stop = close + 1
    return {
        "path": _decode(args[1:close]),
        "angled": angled,
        "path_start": args_start,
        "path_end": args_start + stop,
    }


def _read_pragma(args: str) -> Pragma:
    words = args.replace(":", " : ").split()
    if words == ["once"]:
        return Pragma("once")
    if len(words) >= 2 and words[0] == "OPENCL":
        if words[1] == "EXTENSION" and len(words) >= 5 and words[3] == ":":
            return Pragma("extension", words[2], words[4])
        if words[1] == "FP_CONTRACT" and len(words) >= 3:
            return Pragma("fp_contract", words[2])
    return Pragma("other")
