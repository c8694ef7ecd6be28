"""Macros a host defines in a string it builds the program from (issue 29).

Hosts prepend `#define` lines whose values they compute to the kernel sources: Leela Zero's
`R"(#define BOARD_SIZE )" + std::to_string(BOARD_SIZE) + "\\n#define WTILES " + ...`, a
tuner's `ss << "#define WPT " << wpt`, `snprintf(buf, n, "#define BLOCK %d\\n", block)`,
Python's `f"#define TILE {tile}\\n" + src`. The names are the program's: a kernel's use of one
is not undeclared.

A `#define` counts when it is inside a string (right after its opening quote, a raw string's
`R"(`, or a `\\n` escape) and its value is computed: the string closes on the define's line
and is joined to something (`+`, `<<`, Python's `%` or `.format`), or the value holds a format
placeholder. A kernel written out in a host string, its `#define`s with literal values, defines
them for that kernel only, and a host's own preprocessor lines (`#define WIDTH 16`) are the host's.
"""

from __future__ import annotations

from cllint.analysis.lazy_re import lazy

_DEFINE = lazy(rb"#[ \t]*define[ \t]+([A-Za-z_]\w*)")
# Before the `#`: a string's opening quote (a prefix allowed: `f"`, `L"`, `"""`), or a `\n`
# escape, blanks after either; or a raw string's opening `R"delim(` and any blanks.
_OPENS = lazy(rb'(?:(?:\A|[^\w"\'])[fFbBuUL]{0,2}(?:"|\'|"""|\'\'\')|\\n)[ \t]*\Z|R"[^()\\ \t\n"]{0,16}\(\s*\Z')
# After the name: the rest of the string on the define's line, its close and what follows.
_PLAIN_REST = lazy(rb'((?:[^"\'\\\n]|\\.)*)(?:(?:"""|\'\'\'|"|\')[ \t]*\)?[ \t]*(\+|<<|%(?!=)|\.format\b)?)?')
_RAW_REST = lazy(rb'([^\n()"]*?)\)[^()\\ \t\n"]{0,16}"[ \t]*\)?[ \t]*(\+|<<)')
_PRINTF = lazy(rb"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXfFeEgGs]")
_BRACED = lazy(rb"\{[^{}\"'\n]*\}")
_MAX_BEFORE = 24  # bytes read before a `#` for the string's opening
_COMPUTING = (b"+", b"<<", b"%", b"{")  # on a define's line, one of these computes its value


def string_defines(text: bytes) -> set[bytes]:
    """Names that `#define` lines with computed values in the host's strings define."""
    out: set[bytes] = set()
    for m in _DEFINE.finditer(text):
        if text[m.end():m.end() + 1] in (b'"', b"'", b")"):
            continue  # the string ends within the name: `"#define KERNEL_" + name` computes it
        end = text.find(b"\n", m.end())
        line = text[m.end():end if end >= 0 else len(text)]
        if not any(c in line for c in _COMPUTING):
            continue  # a literal value (MNN's megabytes of kernel strings: most defines end here)
        before = text[max(0, m.start() - _MAX_BEFORE):m.start()]
        opened = _OPENS.search(before)
        if opened is not None and not opened.group().startswith(b'R"'):
            rest = _PLAIN_REST.match(text, m.end())
            if rest is None:
                continue
            line = rest.group(1).split(b"\\n", 1)  # the define's line ends at a `\n` escape
            joined = len(line) == 1 and rest.group(2) is not None
            if joined or _placeholder(line[0], before, rest.group(2) == b".format"):
                out.add(m.group(1))
        elif _RAW_REST.match(text, m.end()) is not None and (opened is not None or _line_start(text, m.start())):
            out.add(m.group(1))  # `R"(#define N )" + value`: the raw string closes on the line
    return out


def _line_start(text: bytes, at: int) -> bool:
    start = text.rfind(b"\n", 0, at) + 1
    return not text[start:at].strip(b" \t")


def _placeholder(value: bytes, before: bytes, formatted: bool) -> bool:
    """A printf placeholder in the value, or a `{...}` one in an f-string or a `.format` string."""
    if _PRINTF.search(value):
        return True
    if not _BRACED.search(value):
        return False
    quote = before.rstrip(b" \t").rstrip(b"\"'")
    return formatted or quote[-1:] in (b"f", b"F")
