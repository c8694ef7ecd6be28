"""The workspace index: what each OpenCL source defines at file scope and which names it uses,
read lexically (no parse), so that a whole project is indexed in a fraction of its lint.

Defined: macros (`#define`), functions (declared or defined), typedefs, struct/union/enum
tags, enum constants and program-scope variables. Used: every word of the file outside
comments and strings. A file is a fragment of a program when it uses names it does not define
that another source does (workspace.py decides which).
"""

from __future__ import annotations

import re

from cllint.analysis.lazy_re import lazy
from cllint.analysis.preprocessor.foreign import without_foreign_arms

# Comments and string/char literals, blanked before anything is read; directive lines
# handled apart (their continuation lines included).
_STRIP = lazy(r"//[^\n]*|/\*.*?(?:\*/|\Z)|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'", re.S)
_DIRECTIVE = lazy(r"^[ \t]*#(?:[^\n\\]|\\.)*", re.M | re.S)
_DEFINE = lazy(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)", re.M)
_DEFINE_LINE = lazy(r"^[ \t]*#[ \t]*define[ \t]+(?:[^\n\\]|\\.)*", re.M | re.S)
# What is left of a C++ raw string around the file (`R"(` ... `)"`) once strings are blanked.
_RAW_MARK = lazy(r"(?:u8|[uUL])?R\"[^\s()\\\"]{0,16}\(|\)[^\s()\\\"]{0,16}\"")
_TOKEN = lazy(r"[A-Za-z_]\w*|[{}()\[\];,=]")
_WORD = lazy(r"[A-Za-z_]\w*")


class FileIndex:
    __slots__ = ("macros", "names", "definitions", "uses", "pastes", "locals")
    macros: frozenset[str]
    names: frozenset[str]  # file-scope names: functions, typedefs, tags, enum constants, variables
    definitions: frozenset[str]  # functions with a body (two such files cannot share a program)
    uses: frozenset[str]  # every word outside comments and strings
    pastes: frozenset[str]  # fixed parts its macros paste to a parameter (`TP##_new`)
    locals: frozenset[str]  # names it declares in bodies and parameter lists

    __match_args__ = ("macros", "names", "definitions", "uses", "pastes", "locals")

    def __init__(
        self,
        macros: frozenset[str],
        names: frozenset[str],
        definitions: frozenset[str],
        uses: frozenset[str],
        pastes: frozenset[str] = frozenset(),
        locals: frozenset[str] = frozenset(),
    ) -> None:
        self.macros = macros
        self.names = names
        self.definitions = definitions
        self.uses = uses
        self.pastes = pastes
        self.locals = locals

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"macros={self.macros!r}, " f"names={self.names!r}, "
                f"definitions={self.definitions!r}, " f"uses={self.uses!r}, " f"pastes={self.pastes!r}, "
                f"locals={self.locals!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.macros, self.names, self.definitions, self.uses, self.pastes, self.locals)
        theirs = (other.macros, other.names, other.definitions, other.uses, other.pastes, other.locals)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.macros, self.names, self.definitions, self.uses, self.pastes, self.locals))

    @property
    def defines(self) -> frozenset[str]:
        return self.macros | self.names


def _blank(m: re.Match[str]) -> str:
    """Keeps the lines (directives are read line by line), not the columns: nothing here
    needs an offset."""
    return " " + "\n" * m.group(0).count("\n")


def index_source(data: bytes) -> FileIndex:
    # Latin-1 maps every byte to one character: names are ASCII, and no word is decoded alone.
    # (A UTF-8 byte order mark reads as blanks, so the first line's directive starts the line.)
    text = data.decode("latin-1")
    if text.startswith("\xef\xbb\xbf"):
        text = "   " + text[3:]
    # (Branches only a C++ or CUDA compiler reads are not OpenCL C: `template <...>` heads.)
    text = without_foreign_arms(_RAW_MARK.sub(_blank, _STRIP.sub(_blank, text)))
    macros = frozenset(m.group(1) for m in _DEFINE.finditer(text))
    code = _DIRECTIVE.sub(_blank, text)
    # Words of the code and of macro bodies; a word only an `#if` names is a choice the host
    # makes, not a name the file needs from another source.
    bodies = "\n".join(m.group(0) for m in _DEFINE_LINE.finditer(text))
    uses = frozenset(_WORD.findall(code) + _WORD.findall(bodies))
    names, definitions = _file_scope(code)
    return FileIndex(macros, frozenset(names), frozenset(definitions), uses, _pastes(text), _declared(code))


# Words start at a word's start and match whole (`\w*+`): a 100,000-letter name must not be
# tried at every split.
_DECLARATOR = lazy(r"(?<!\w)([A-Za-z_]\w*+|\*)\s*+(?:\*\s*+)*+(?<!\w)([A-Za-z_]\w*+)\s*+(?=[=;,)\[])")
_NOT_TYPES = frozenset({"return", "case", "goto", "sizeof", "else", "do", "typedef"})


def _declared(code: str) -> frozenset[str]:
    """Names in a declarator's place anywhere (`float sigma)`, `int i =`, `T *p;`): a word
    after a type-like word, before `=`, `;`, `,`, `)` or `[`. Locals and parameters, which
    must never make a file look like a fragment of the source defining a global of that name."""
    out = set()
    for m in _DECLARATOR.finditer(code):
        before, name = m.group(1), m.group(2)
        if before in _NOT_TYPES or before == "*" or name in _KEYWORDS:
            continue
        if "*" in m.group(0) and _in_expression(code, m.start()):
            continue  # `y = a * WIDTH;`, `n * BLOCK)`: a product, not `T *name`
        out.add(name)
    return frozenset(out)


_OPERATOR_BEFORE = frozenset("=+-/%&|^<>?:!~[")


def _in_expression(code: str, at: int) -> bool:
    """Whether the words at `at` continue an expression: an operator or `return` before them."""
    before = code[max(0, at - 16):at].rstrip()
    return bool(before) and (before[-1] in _OPERATOR_BEFORE or before.endswith("return")
                             and not (before[-7:-6].isalnum() or before[-7:-6] == "_"))


_PASTE = lazy(r"##\s*+([A-Za-z_]\w*+)|(?<!\w)([A-Za-z_]\w*+)\s*+(?=##)")
_FUNCTION_MACRO = lazy(r"^[ \t]*#[ \t]*define[ \t]+[A-Za-z_]\w*\(([^)]*)\)((?:[^\n\\]|\\.)*)", re.M | re.S)


def _pastes(text: str) -> frozenset[str]:
    """The fixed words next to `##` in function-like macros' bodies, at least 3 characters:
    `TP##_new` pastes `_new` (parameters are what varies, never a fixed part)."""
    if "##" not in text:
        return frozenset()
    out = set()
    for params, body in _FUNCTION_MACRO.findall(text):
        if "##" not in body:
            continue
        names = {w.strip() for w in params.split(",")}
        for a, b in _PASTE.findall(body):
            w = a or b
            if len(w) >= 3 and w not in names:
                out.add(w)
    return frozenset(out)


_BRACE = lazy(r"[{}]")
_TAG = lazy(r"(?:struct|union|enum)\s+([A-Za-z_]\w*)")  # (no `\b`: 8x faster; a longer word ending so is rare)
_ENUM_BODY = lazy(r"\benum\b[^{;]*\{([^}]*)\}")
_ENUMERATOR = lazy(r"(?:^|,)\s*([A-Za-z_]\w*)")


def _file_scope(code: str) -> tuple[set[str], set[str]]:
    """Names declared at brace depth 0, tags anywhere, enum constants. Only the text outside
    braces is tokenised (bodies are most of a file, and say nothing at file scope)."""
    outside: list[str] = []
    depth = 0
    start = 0
    for m in _BRACE.finditer(code):
        if m.group(0) == "{":
            if depth == 0:
                outside.append(code[start:m.end()])
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                start = m.start()
    if depth == 0:
        outside.append(code[start:])
    names = {m.group(1) for m in _TAG.finditer(code)}
    for body in _ENUM_BODY.findall(code):
        names.update(m.group(1) for m in _ENUMERATOR.finditer(body))
    definitions: set[str] = set()
    paren = 0
    callee: str | None = None  # a name before `(`: a function if `{` follows its `)`
    closed: str | None = None
    prev = ""
    for m in _TOKEN.finditer(" ".join(outside)):
        t = m.group(0)
        if t == "{":
            if paren == 0 and closed is not None:
                definitions.add(closed)
            closed = None
        elif t == "}":
            closed = None
        elif t == "(":
            if paren == 0 and _is_name(prev):
                callee = prev
            paren += 1
        elif t == ")":
            paren = max(0, paren - 1)
            if paren == 0 and callee is not None:
                closed, callee = callee, None
        elif t in (";", ",", "=", "["):
            if paren == 0:
                if _is_name(prev):
                    names.add(prev)
                if closed is not None and t in (";", ","):  # a prototype
                    names.add(closed)
            if t == ";":
                closed = None
        prev = t
    names |= definitions
    return names, definitions


def _is_name(t: str) -> bool:
    return bool(t) and (t[:1].isalpha() or t[:1] == "_") and t not in _KEYWORDS


_KEYWORDS = frozenset(w for w in """
auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
bool half size_t ptrdiff_t uchar ushort uint ulong kernel __kernel global __global local __local constant
__constant private __private generic __generic read_only write_only read_write __read_only __write_only
__read_write __attribute__ attribute
""".split())
