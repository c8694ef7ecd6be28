"""Line-based scanner for preprocessing directives.

The tree-sitter grammar reads conditional groups only partly structurally, so the preprocessor
view is built from the text. The scanner skips comments and string/char literals outside
directives (a `#` inside `/* ... */` is not a directive) and reads a directive up to the end of
its logical line: `\\`-newline continuations (blanks between the two included, as clang-19 reads
them, with a warning) and block comments that span lines belong to it.

All offsets are byte offsets into the UTF-8 source; invalid UTF-8 is decoded with replacement
characters in the text fields and never raises.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from cllint.analysis.database import current
from cllint.analysis.lazy_re import lazy

__all__ = ["Directive", "Pragma", "scan_directives", "blank_comments"]

# Consumes everything up to the newline before the next directive in one call, so the Python
# loop runs once per directive, not once per comment or string.
_SKIP = lazy(
    rb"""
    (?:
      [^\n/"']++
    | /\*(?:.*?\*/|.*)
    | //(?:[^\n\\]++|\\[ \t\f\v]*+\r?\n|\\)*+
    | /
    | "(?:[^"\\\n]++|\\.)*+"?
    | '(?:[^'\\\n]++|\\.)*+'?
    | \n(?![ \t\f\v]*\#)
    )*+
    """,
    re.DOTALL | re.VERBOSE,
)
# A directive starts a line; the first line has no preceding newline and is checked on its own.
_FIRST_DIR = re.compile(rb"(?:\xef\xbb\xbf)?[ \t\f\v]*\#")  # (a UTF-8 byte order mark first, as clang allows)

# The rest of a directive's logical line, from just after the `#`.
_BODY = lazy(
    rb"""
    (?:
      [^\n/"'\\]++
    | /\*(?:.*?\*/|.*)
    | //(?:[^\n\\]++|\\[ \t\f\v]*+\r?\n|\\)*+
    | "(?:[^"\\\n]++|\\.)*+"?
    | '(?:[^'\\\n]++|\\.)*+'?
    | \\[ \t\f\v]*+\r?\n
    | [/\\]
    )*+
    """,
    re.DOTALL | re.VERBOSE,
)

# Inside a directive: what becomes blank before the arguments are read (same length, so
# offsets keep mapping 1:1 onto the file).
_BLANKABLE = lazy(
    rb"""/\*(?:.*?\*/|.*)|//[^\n]*|\\[ \t\f\v]*\r?\n|"(?:[^"\\\n]++|\\.)*+"?|'(?:[^'\\\n]++|\\.)*+'?""",
    re.DOTALL,
)

_IDENT = lazy(rb"[A-Za-z_][A-Za-z0-9_]*")
_WS = lazy(rb"[ \t\f\v\r\n]*")

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
    if b"/" not in chunk and b"\\" not in chunk:
        return chunk  # the common case, and the cheap one
    return _BLANKABLE.sub(_blank, chunk)


class Pragma:
    """A recognised `#pragma OPENCL ...`; other pragmas keep `kind == "other"`."""

    __slots__ = ("kind", "name", "behavior")
    kind: str  # "extension" | "fp_contract" | "once" | "other"
    name: str | None  # extension name or "all"; FP_CONTRACT switch
    behavior: str | None  # "enable" | "disable" | "require" | "warn" ...

    __match_args__ = ("kind", "name", "behavior")

    def __init__(self, kind: str, name: str | None = None, behavior: str | None = None) -> None:
        self.kind = kind
        self.name = name
        self.behavior = behavior

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"kind={self.kind!r}, " f"name={self.name!r}, "
                f"behavior={self.behavior!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.name, self.behavior) == (other.kind, other.name, other.behavior)

    def __hash__(self) -> int:
        return hash((self.kind, self.name, self.behavior))


class Directive:
    __slots__ = ("kind", "start", "end", "keyword", "args", "args_start", "name", "name_start", "name_end",
                 "params", "variadic", "body", "path", "angled", "path_start", "path_end", "pragma")
    kind: str  # one of KINDS, "null" for a lone `#`, or "other"
    start: int  # offset of the line start (indentation included)
    end: int  # end of the logical line, newline excluded
    keyword: str  # as written: "ifdef", "elif", "pragma", "" for a null directive
    args: str  # argument text with comments blanked, stripped
    args_start: int  # offset of `args` in the file
    name: str | None  # macro name / identifier argument
    name_start: int
    name_end: int
    params: tuple[str, ...] | None  # define: None for object-like
    variadic: bool
    body: str  # define: replacement text, whitespace-collapsed
    path: str | None  # include: the path between the delimiters
    angled: bool  # include: `<...>`
    path_start: int  # include: span of the path text (delimiters included)
    path_end: int
    pragma: Pragma | None

    __match_args__ = ("kind", "start", "end", "keyword", "args", "args_start", "name", "name_start",
                      "name_end", "params", "variadic", "body", "path", "angled", "path_start", "path_end",
                      "pragma")

    def __init__(
        self,
        kind: str,
        start: int,
        end: int,
        keyword: str,
        args: str,
        args_start: int,
        name: str | None = None,
        name_start: int = -1,
        name_end: int = -1,
        params: tuple[str, ...] | None = None,
        variadic: bool = False,
        body: str = "",
        path: str | None = None,
        angled: bool = False,
        path_start: int = -1,
        path_end: int = -1,
        pragma: Pragma | None = None,
    ) -> None:
        self.kind = kind
        self.start = start
        self.end = end
        self.keyword = keyword
        self.args = args
        self.args_start = args_start
        self.name = name
        self.name_start = name_start
        self.name_end = name_end
        self.params = params
        self.variadic = variadic
        self.body = body
        self.path = path
        self.angled = angled
        self.path_start = path_start
        self.path_end = path_end
        self.pragma = pragma

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"kind={self.kind!r}, " f"start={self.start!r}, "
                f"end={self.end!r}, " f"keyword={self.keyword!r}, " f"args={self.args!r}, "
                f"args_start={self.args_start!r}, " f"name={self.name!r}, "
                f"name_start={self.name_start!r}, " f"name_end={self.name_end!r}, "
                f"params={self.params!r}, " f"variadic={self.variadic!r}, " f"body={self.body!r}, "
                f"path={self.path!r}, " f"angled={self.angled!r}, " f"path_start={self.path_start!r}, "
                f"path_end={self.path_end!r}, " f"pragma={self.pragma!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.kind, self.start, self.end, self.keyword, self.args, self.args_start, self.name,
                self.name_start, self.name_end, self.params, self.variadic, self.body, self.path, self.angled,
                self.path_start, self.path_end, self.pragma)
        theirs = (other.kind, other.start, other.end, other.keyword, other.args, other.args_start, other.name,
                  other.name_start, other.name_end, other.params, other.variadic, other.body, other.path,
                  other.angled, other.path_start, other.path_end, other.pragma)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def scan_directives(text: bytes, key: object = None) -> list[Directive]:
    """All directives of `text` in order; never raises. With `key` (a file), the scan
    of that key's previous text is reused: only the text between the directives around
    the edit is scanned again (a keystroke would otherwise rescan the whole file).
    The directives returned are shared with later scans: read them, never change them."""
    if key is None:
        return _scan(text, 0, [], None)
    scans = current().per_file("directives.scans", _LAST_SCANS_MAX)
    last = scans.touch(key)
    if last is not None and (last[0] is text or last[0] == text):
        scans[key] = (text, last[1])
        return last[1]  # unchanged (a header, read again on every build of its includer)
    out = _rescan(last[0], last[1], text) if last is not None else None
    if out is None:
        out = _scan(text, 0, [], None)
    scans.put(key, (text, out))  # the least recently scanned goes first
    return out


# Per key, the last (text, directives), in the database's "directives.scans".
_LAST_SCANS_MAX = 16


def _scan(text: bytes, pos: int, out: list[Directive],
          resume: Callable[[Directive], bool] | None) -> list[Directive]:
    """Directives from `pos`, which is 0 or the end of a directive, appended to `out`;
    stops early, returning `out`, after a directive for which `resume` is true."""
    size = len(text)
    body_match = _BODY.match
    if pos == 0:
        first = _FIRST_DIR.match(text)
        if first is not None:
            body = body_match(text, first.end())
            pos = body.end() if body else first.end()
            out.append(_read(text, 0, first.end(), pos))
            if resume is not None and resume(out[-1]):
                return out
    skip = _SKIP.match
    first_dir = _FIRST_DIR.match
    while pos < size:
        if text.find(b"#", pos) < 0:
            break  # no directive can follow: no need to read through comments and literals
        gap = skip(text, pos)
        at = gap.end() if gap else pos
        if at >= size:
            break
        # _SKIP stops only at a newline that starts a directive line.
        m = first_dir(text, at + 1)
        if m is None:  # defensive: cannot happen, but never loop forever
            pos = at + 1
            continue
        hash_end = m.end()
        body = body_match(text, hash_end)
        end = body.end() if body else hash_end
        out.append(_read(text, at + 1, hash_end, end))
        if resume is not None and resume(out[-1]):
            return out
        pos = max(end, hash_end)
    return out


def _rescan(old: bytes, before: list[Directive], text: bytes) -> list[Directive] | None:
    """`text`'s directives from `old`'s: the directives that end before the edit are
    kept, the text after the last of them is scanned until a directive found again
    starts where an old one, entirely after the edit, now stands; the rest of the old
    ones follow, moved. The scan state at a directive's start is always the same (a
    line start outside comments and literals), so what follows it scans alike."""
    head = _common_prefix(old, text)
    tail = _common_suffix(old, text, min(len(old), len(text)) - head)
    old_end, delta = len(old) - tail, len(text) - len(old)
    # Kept: directives whose line, and the newline after it, lie before the edit.
    kept = 0
    while kept < len(before) and before[kept].end < head - 1:
        kept += 1
    later = kept
    while later < len(before) and before[later].start <= old_end:
        later += 1
    pos = before[kept - 1].end if kept else 0
    starts = {d.start + delta: i for i, d in enumerate(before[later:], later)}
    found: list[int] = []

    def resume(d: Directive) -> bool:
        i = starts.get(d.start)
        if i is None:
            return False
        found.append(i)
        return True

    out = _scan(text, pos, list(before[:kept]), resume if starts else None)
    if found:
        i = found[0]
        out.pop()  # read again from the new text; the old one is the same, moved
        out.extend(_moved(d, delta) for d in before[i:])
    return out


def _moved(d: Directive, delta: int) -> Directive:
    if not delta:
        return d
    from copy import copy  # (an edit's reparse only: `copy` costs start-up ~1M instructions)

    m = copy(d)
    m.start += delta
    m.end += delta
    m.args_start += delta
    if m.name_start >= 0:
        m.name_start += delta
        m.name_end += delta
    if m.path_start >= 0:
        m.path_start += delta
        m.path_end += delta
    return m


_CHUNK = 4096


def _common_prefix(a: bytes, b: bytes) -> int:
    # Whole chunks first, then halves of the chunk that differs: every step is a memcmp.
    n = min(len(a), len(b))
    lo = 0
    while lo + _CHUNK <= n and a[lo : lo + _CHUNK] == b[lo : lo + _CHUNK]:
        lo += _CHUNK
    hi = min(lo + _CHUNK, n)  # a[:lo] == b[:lo]; the answer lies in [lo, hi]
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Bytes the two end with alike, at most `limit` (so prefix and suffix never overlap)."""
    la, lb = len(a), len(b)
    k = 0
    while k + _CHUNK <= limit and a[la - k - _CHUNK : la - k] == b[lb - k - _CHUNK : lb - k]:
        k += _CHUNK
    hi = min(k + _CHUNK, limit)  # the last k bytes agree; the answer lies in [k, hi]
    while k < hi:
        mid = (k + hi + 1) // 2
        if a[la - mid : la - k] == b[lb - mid : lb - k]:
            k = mid
        else:
            hi = mid - 1
    return k


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace")


def _read(text: bytes, start: int, hash_end: int, end: int) -> Directive:
    clean = blank_comments(text[hash_end:end])
    head = _HEAD.match(clean)
    assert head is not None  # every part of _HEAD is optional
    kw = head.group(1)
    a = head.end()
    args_raw = clean[a:].rstrip()
    args = args_raw.decode("utf-8", errors="replace")
    args_start = hash_end + a
    if kw is None:
        return Directive("null" if not args_raw else "other", start, end, "", args, args_start)
    keyword = kw.decode("ascii")
    kind = keyword if keyword in KINDS else "other"
    d = Directive(kind, start, end, keyword, args, args_start)
    if kind in _NAMED:
        name = _IDENT.match(args_raw)
        if name is not None:
            d.name = _decode(name.group(0))
            d.name_start = args_start + name.start()
            d.name_end = args_start + name.end()
            if kind == "define":
                _read_define(d, args_raw, name.end())
    elif kind == "include":
        _read_include(d, args_raw, args_start)
    elif kind == "pragma":
        d.pragma = _read_pragma(args)
    return d


_HEAD = lazy(rb"[ \t\f\v\r\n]*([A-Za-z_][A-Za-z0-9_]*)?[ \t\f\v\r\n]*")
_NAMED = frozenset({"ifdef", "ifndef", "elifdef", "elifndef", "undef", "define"})


def _read_define(d: Directive, args: bytes, name_end: int) -> None:
    # Function-like only when `(` follows the name with no space (C99 6.10.3p3).
    if args[name_end : name_end + 1] != b"(":
        d.body = _collapse(args[name_end:])
        return
    close = args.find(b")", name_end)
    if close < 0:
        d.params = ()  # malformed; keep it function-like and empty
        return
    params: list[str] = []
    variadic = False
    named_rest = ""
    for raw in args[name_end + 1 : close].split(b","):
        p = raw.strip()
        if p == b"...":
            variadic = True
        elif p.endswith(b"..."):
            # GNU `x...`: `x` names the variable arguments, as `__VA_ARGS__` does
            variadic = True
            named_rest = _decode(p[:-3].strip())
        elif p:
            params.append(_decode(p))
    d.params = tuple(params)
    d.variadic = variadic
    d.body = _collapse(args[close + 1 :])
    if named_rest:
        d.body = re.sub(rf"\b{re.escape(named_rest)}\b", "__VA_ARGS__", d.body)


def _collapse(raw: bytes) -> str:
    return " ".join(_decode(raw).split())


def _read_include(d: Directive, args: bytes, args_start: int) -> None:
    if args[:1] == b"<":
        close = args.find(b">", 1)
        angled = True
    elif args[:1] == b'"':
        close = args.find(b'"', 1)
        angled = False
    else:
        return  # computed include (`#include MACRO`): not resolved
    if close < 0:
        close = len(args)
        stop = close
    else:
        stop = close + 1
    d.path = _decode(args[1:close])
    d.angled = angled
    d.path_start = args_start
    d.path_end = args_start + stop


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
