"""Macro names a host's JIT-constant makers pass to the compiler (issue 29).

Hosts that generate a kernel's `#define` lines from C++ calls (`MakeJitConstant("TILE", 16)`,
`jit.AddConstant(...)`, `add_define("BLOCK", 8)`) name each macro with a string, often one they
compose: `"INPUT" + std::to_string(i)`, `macroName + "_TYPE"`, `"TO_" + macroName + "_TYPE(v)"`,
and a tensor's constant spreads into `{ _name + "_SIZE_X", ... }` definitions. The names are
the host's: a kernel's use of one is not undeclared. Composed names make families:

- literal names: `MakeJitConstant("TILE", ...)` gives `TILE`;
- heads: a name that starts with a literal and goes on with a computed part
  (`"INPUT" + std::to_string(i)` gives `INPUT` followed by digits, `"NL_M" + suffix` gives
  `NL_M` followed by a word or nothing);
- tails: a literal the host appends to a computed name (`macroName + "_TYPE"`,
  `{ _name + "_SIZE_X", ... }`), which make a name only after a literal name or a head
  (`OUTPUT_SIZE_X`, `INPUT0_SIZE_X`): a tail alone is no family, so a misspelt name that no
  head and tail of the host could produce is still reported.

A macro-style word a host passes whole as a string argument of a call that renames is a
literal name too: SkelCL renames the user's function to the name its skeleton kernels call
(`program.renameFunction(funcName, "SCL_FUNC")`); a host printing a setting's name
(`printf("%s=%f", "FACTOR", f)`) defines nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from cllint.analysis.lazy_re import lazy

from .helper_args import CallerStrings, enclosing_function
from .hosts import _arguments, _word_before, replaced_words

_MIN_REPLACED = 3  # a shorter replaced word (`"N"`) would silence too many names
# A string argument that is one macro-style word, of a call that renames (SkelCL's
# `program.renameFunction(funcName, "SCL_FUNC")` gives the user's function the name its skeleton
# kernels call). Not any call's: a host printing `printf("%s=%f", "FACTOR", f)` defines nothing.
_RENAME_CALL = lazy(rb"(?i:\w*rename\w*)[ \t]*\(([^;]{0,300})")
_WHOLE_NAME = lazy(rb"""(?:\A|,)[ \t]*"([A-Z_][A-Z0-9_]*[A-Z][A-Z0-9_]*)"[ \t]*(?=[,)])""")

# A maker's name says it makes a JIT constant, a constant, a define or a macro.
# (`MakeJitConstant`, `GetJit_IndexMacro`, `jit.AddConstant`, `add_define`, `value_macro`;
# oneDNN's `kernel_ctx.define_int("IC", ic)`, `define_float`, `dispatch.define_dim("MB", ...)`,
# `defineInt`: a define of a kind, the name its first argument)
_MAKER = lazy(rb"\w*jit\w*|\w*(?:definition|define|macro)s?|(?:add|set|make|define|get)\w*?constants?"
              rb"|define_\w+|(?-i:define[A-Z]\w*)", re.I)
_OPEN = lazy(rb"\(")
_STRING = lazy(rb'"((?:[^"\\\n]|\\.)*)"')
_NAME = lazy(r"[A-Za-z_]\w*")
_NUMBER_CALL = lazy(rb"(?:std::)?to_string\s*\(")  # a number's digits
# A string made from one literal: `std::string("STEP_")`, `std::string{"STEP_"}`.
_STRING_OF = lazy(rb'(?:std::)?string\s*[({]\s*"((?:[^"\\\n]|\\.)*)"\s*[)}]')
# A formatted string: `utils::format("RED_D%d", i)`, `string_format(...)`, `fmt::format(...)`;
# its format's placeholders are computed parts.
_FORMAT_CALL = lazy(rb'[\w:]*format\w*\s*\(\s*"((?:[^"\\\n]|\\.)*)"')
_PLACEHOLDER = lazy(r"%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?([diouxXs])|%%")
# `-D` and a name with placeholders in a host string: `"-DGWS_GET_%s=%s_GET_ID%d"`.
_FORMATTED_OPTION = lazy(rb'-D[ \t]*([A-Za-z_](?:\w|%[-+ #0]*\d*(?:\.\d+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXs])*)')
# `{ _name + "_SIZE_X", value }`: a tail the host appends to a name it is given.
_BRACED_TAIL = lazy(rb'\{\s*[A-Za-z_]\w*\s*\+\s*"([A-Za-z_]\w*)"\s*,')
_IDENT = lazy(r"[A-Za-z_]\w*")

# The strings a helper's callers pass for a name the maker is given (helper_args.py).
Given = Callable[[bytes], list[str]] | None
# A template's parts: a literal string, or a computed word (`\d+` for a number's digits, else
# `\w*`: a string the host computes may be empty).
_Part = tuple[str, str]
_MAX_ARGS = 2  # the name is the maker's first or second argument


def _split_plus(arg: bytes) -> list[bytes]:
    """The operands of a top-level `+` chain (nested calls kept whole)."""
    out, depth, start, quote = [], 0, 0, False
    i = 0
    while i < len(arg):
        c = arg[i]
        if quote:
            if c == 92:  # backslash
                i += 1
            elif c == 34:
                quote = False
        elif c == 34:
            quote = True
        elif c in b"([{":
            depth += 1
        elif c in b")]}":
            depth -= 1
        elif c == 43 and depth == 0:  # '+'
            out.append(arg[start:i].strip())
            start = i + 1
        i += 1
    out.append(arg[start:].strip())
    return out


def _template(arg: bytes, assigned: dict[bytes, list[bytes]], depth: int = 0,
              given: Given = None) -> list[list[_Part]]:
    """The shapes a name argument may take: each a list of parts (a variable assigned a
    concatenation in the same file stands for each of its assignments; a parameter of the
    helper holding the maker, for each string its callers pass: `given`)."""
    shapes: list[list[_Part]] = [[]]
    for op in _split_plus(arg):
        m = _STRING.fullmatch(op) or _STRING_OF.fullmatch(op)
        f = _FORMAT_CALL.match(op) if m is None else None
        if m is not None:
            alts = [[("lit", m.group(1).decode(errors="replace"))]]
        elif f is not None:
            values = _arguments(op, op.index(b"(") + 1)[1:]
            alts = _format_shapes(f.group(1).decode(errors="replace"), values, given)
        elif _NUMBER_CALL.match(op):
            alts = [[("num", r"\d+")]]
        elif depth == 0 and op in assigned:
            alts = [t for value in assigned[op] for t in _template(value, assigned, 1)] or [[("any", r"\w*")]]
        elif given is not None and (passed := given(op)):
            alts = [[("lit", p)] for p in passed]
        else:  # a computed string, maybe empty (`"ACTIVATION" + suffix` with suffix "")
            alts = [[("any", r"\w*")]]
        shapes = [s + a for s in shapes for a in alts][:16]
    return shapes


def _format_parts(fmt: str) -> list[_Part]:
    """A printf format's parts: its text, and a computed word for each placeholder (`%d` digits)."""
    return _format_shapes(fmt, [], None)[0]


def _format_shapes(fmt: str, values: list[bytes], given: Given) -> list[list[_Part]]:
    """The shapes of a formatted name: its text, and for each placeholder a computed word (`%d`
    digits), or, for a `%s` filled by a parameter of the helper, each string its callers pass."""
    shapes: list[list[_Part]] = [[]]
    at, value = 0, 0
    for m in _PLACEHOLDER.finditer(fmt):
        alts: list[list[_Part]] = [[("lit", fmt[at:m.start()])]] if m.start() > at else [[]]
        if m.group(1) is None:
            alts = [[*a, ("lit", "%")] for a in alts]
        else:
            arg = values[value] if value < len(values) else b""
            value += 1
            passed = given(arg) if given is not None and m.group(1) == "s" else []
            fills: list[_Part] = [("lit", p) for p in passed] or \
                [("num", r"\d+") if m.group(1) in "diouxX" else ("any", r"\w*")]
            alts = [[*a, fill] for a in alts for fill in fills]
        shapes = [s + a for s in shapes for a in alts][:16]
        at = m.end()
    if at < len(fmt):
        shapes = [[*s, ("lit", fmt[at:])] for s in shapes]
    return shapes


def _drop_parameters(parts: list[_Part]) -> list[_Part] | None:
    """Cut a function-like macro's parameter list (`"(VAR, STMT)"`) from the template's end."""
    for i, (kind, text) in enumerate(parts):
        if kind == "lit" and "(" in text:
            head = text[:text.index("(")]
            return [*parts[:i], *((("lit", head),) if head else ())]
    return parts


class HostNameFamilies:
    """Literal names, heads and tails a host's JIT-constant makers produce."""

    __slots__ = ("literals", "heads", "tails", "_head")
    literals: frozenset[str]
    heads: tuple[str, ...]  # regular expressions, each a name's start
    tails: frozenset[str]

    def __init__(self, literals: Iterable[str] = (), heads: Iterable[str] = (), tails: Iterable[str] = ()) -> None:
        self.literals = frozenset(literals)
        self.heads = tuple(sorted(set(heads)))
        self.tails = frozenset(tails)
        self._head = re.compile("|".join(f"(?:{h})" for h in self.heads)) if self.heads else None

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(literals={self.literals!r}, heads={self.heads!r}, tails={self.tails!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.literals, self.heads, self.tails) == (other.literals, other.heads, other.tails)

    def __hash__(self) -> int:
        return hash((self.literals, self.heads, self.tails))

    def _starts(self, name: str) -> bool:
        return name in self.literals or (self._head is not None and self._head.fullmatch(name) is not None)

    def produces(self, name: str) -> bool:
        """Whether some literal, head, or head or literal followed by a tail, is `name`."""
        if self._starts(name):
            return True
        for i in range(1, len(name)):
            if name[i:] in self.tails and self._starts(name[:i]):
                return True
        return False

    def words_in(self, source: bytes) -> tuple[str, ...]:
        """The words of a source the families produce (the literals left out: they are passed
        as they are)."""
        if not self.heads and not self.tails:
            return ()
        words = set(_IDENT.findall(source.decode("utf-8", "replace"))) - self.literals
        return tuple(sorted(w for w in words if self.produces(w)))


NO_FAMILIES = HostNameFamilies()


def _assignments(text: bytes) -> dict[bytes, list[bytes]]:
    """`name = "ACTIVATION" + suffix;` in a host file: variables assigned a concatenation with
    a string, which a maker may then be given."""
    out: dict[bytes, list[bytes]] = {}
    if b'" +' not in text and b'"+' not in text and b'+ "' not in text and b'+"' not in text:
        return out
    # Found by the `=` and read around it, each statement within _MAX_VALUE bytes: a pattern
    # with two unbounded runs backtracked quadratically on MNN's megabytes of generated kernel
    # strings (0.7 s a file, a minute for its workspace).
    for m in _EQUALS.finditer(text):
        at = m.start()
        if text[at - 1:at] in _NOT_ASSIGNMENT:
            continue
        name = _word_before(text, at)
        if not name or name[:1].isdigit():
            continue
        end = text.find(b";", at + 1, at + 1 + _MAX_VALUE)
        if end < 0:
            continue
        value = text[at + 1:end]
        if b'"' in value and b"+" in value and b"{" not in value and b"}" not in value:
            out.setdefault(name, []).append(value.strip())
    return out


_EQUALS = lazy(rb"=(?!=)")
_NOT_ASSIGNMENT = frozenset((b"=", b"!", b"<", b">", b"+", b"-", b"*", b"/", b"%", b"&", b"|", b"^"))
_MAX_VALUE = 400  # bytes of an assigned concatenation



def _name_argument(text: bytes, args: list[bytes], assigned: dict[bytes, list[bytes]]) -> bytes | None:
    """The maker's name argument: its first, where that is a string, a concatenation with one
    or a string variable (`const std::string& name`); else its second where that is a string
    (`MakeTypeJitConstants(dt, "UNIT")`). A value (`MakeJitConstant(name, "input")`) is none."""
    if not args:
        return None
    first = args[0]
    if b'"' in first or first in assigned:
        return first
    if re.fullmatch(rb"[A-Za-z_]\w*", first):
        if re.search(rb"string\s*&?\s*" + re.escape(first) + rb"\b", text):
            return first
    if len(args) >= _MAX_ARGS and b'"' in args[1]:
        return args[1]
    return None


def host_name_families(texts: Iterable[bytes]) -> HostNameFamilies:
    literals: set[str] = set()
    heads: set[str] = set()
    tails: set[str] = set()
    braced: set[str] = set()
    texts = list(texts)
    # A string replacement rewrites every name the word is part of (`.replace("FIELD", name)`
    # makes `FIELD_P` another name the host defines): a head that may stand anywhere in a name.
    for text in texts:
        heads.update(rf"\w*{re.escape(w)}\w*" for w in replaced_words(text) if len(w) >= _MIN_REPLACED)
    texts = [t for t in texts if b'"' in t]
    for text in texts:  # a function renamed to a name (`renameFunction(f, "SCL_FUNC")`): the host's
        for call in _RENAME_CALL.finditer(text) if b"enam" in text else ():
            literals.update(m.group(1).decode() for m in _WHOLE_NAME.finditer(call.group(1))
                            if len(m.group(1)) >= _MIN_REPLACED)
    called: list[set[bytes]] = []  # per text, the words it calls (where a helper's callers are)
    makers: list[tuple[bytes, int, bytes, dict[bytes, list[bytes]]]] = []
    is_maker: dict[bytes, bool] = {}  # a word's answer, asked once (a host tree calls few words often)
    for text in texts:
        words: set[bytes] = set()
        called.append(words)
        assigned: dict[bytes, list[bytes]] | None = None
        for m in _OPEN.finditer(text):
            word = _word_before(text, m.start())
            words.add(word)
            maker = is_maker.get(word)
            if maker is None:
                maker = is_maker[word] = bool(word) and not word[:1].isdigit() and _MAKER.fullmatch(word) is not None
            if not maker:
                continue
            if assigned is None:
                assigned = _assignments(text)
            arg = _name_argument(text, _arguments(text, m.end()), assigned)
            if arg is not None:
                makers.append((text, m.start(), arg, assigned))
    callers = CallerStrings(texts, called)
    for text, at, arg, assigned in makers:
        for shape in _template(arg, assigned, given=_given(text, at, callers)):
            _add(_drop_parameters(shape), literals, heads, tails)
    for text in texts:
        if b"#define" in text:
            made, named = define_templates(text)
            heads.update(made)
            literals.update(named)
        if b"{" in text:
            braced.update(m.group(1).decode() for m in _BRACED_TAIL.finditer(text))
        if b"-D" in text and b"%" in text:
            for name in _formatted_options(text):
                _add(_format_parts(name), literals, heads, tails)
    # A braced tail belongs to the makers' names only where some maker composes names at all.
    if literals or heads:
        tails |= braced
    return HostNameFamilies(literals, heads, tails)


# A `#define` a host writes into a kernel's text with its name made by a format: Python's
# `"#define READ_{key}_IMAGE(...)".format(key=k)` and f-strings, printf's `"#define TILE_%d_WIDTH"`.
_DEFINE_TEMPLATE = lazy(rb"#[ \t]*define[ \t]+((?:[A-Za-z_]|\{\w*\}|%[sdiu])(?:\w|\{\w*\}|%[sdiu])*)")
_NAME_PLACEHOLDER = lazy(r"\{\w*\}|%[sdiu]")


def define_templates(text: bytes) -> tuple[set[str], set[str]]:
    """The macros a host writes into kernels' text as `#define` lines of its strings: patterns
    (regular expressions of whole names) where a format makes the name, each placeholder a word,
    and the names written whole. A pattern needs a literal part of two characters or more with a
    letter in it (`#define {name} {value}` could make any name: no pattern)."""
    patterns: set[str] = set()
    names: set[str] = set()
    long_strings = b'"""' in text or b"'''" in text or b'R"' in text
    for m in _DEFINE_TEMPLATE.finditer(text):
        line_start = text.rfind(b"\n", 0, m.start()) + 1
        if not long_strings and b'"' not in text[line_start:m.start()]:
            continue  # not in a string: the host's own preprocessor (a C host's include guard)
        if text[m.end():m.end() + 1] in (b'"', b"'"):
            continue  # the string ends in the name: a computed part follows (`"#define ROUTINE_" + r`)
        name = m.group(1).decode()
        parts = _NAME_PLACEHOLDER.split(name)
        if len(parts) == 1:
            names.add(name)
        elif any(len(p) >= 2 and any(c.isalpha() for c in p) for p in parts):
            patterns.add(r"\w+".join(re.escape(p) for p in parts))
    return patterns, names


def _given(text: bytes, at: int, callers: CallerStrings) -> Given:
    """The strings callers pass for a parameter of the function holding the maker at `at`
    (found when a name asks)."""
    def passed(name: bytes) -> list[str]:
        if not _WORD_ONLY.fullmatch(name):
            return []
        function = enclosing_function(text, at)
        if function is None or name not in function[1]:
            return []
        return callers.passed(function[0], function[1].index(name))
    return passed


_WORD_ONLY = lazy(rb"[A-Za-z_]\w*")


def _formatted_options(text: bytes) -> list[str]:
    """Names of `-D` options a host formats (`"-DGWS_GET_%s_BLOCK=..."`), each with a placeholder
    in it (a plain `-D NAME` is hosts.py's)."""
    out = []
    for m in _FORMATTED_OPTION.finditer(text):
        at = m.start()
        if b"%" in m.group(1) and at > 0 and text[at - 1] in b"\" \t":
            out.append(m.group(1).decode(errors="replace"))
    return out


def _add(parts: list[_Part] | None, literals: set[str], heads: set[str], tails: set[str]) -> None:
    if not parts:
        return
    if all(kind == "lit" for kind, _ in parts):
        name = "".join(text for _, text in parts)
        if _NAME.fullmatch(name):
            literals.add(name)
        return
    if parts[0][0] == "lit":  # a head: a literal start, then computed parts
        pattern = "".join(re.escape(text) if kind == "lit" else text for kind, text in parts)
        if _NAME.match(parts[0][1]) and re.fullmatch(r"[\w\\+*]*", pattern):
            heads.add(pattern)
        return
    rest = parts[1:]  # a computed start: the literal that follows is a tail
    if rest and all(kind == "lit" for kind, _ in rest):
        tail = "".join(text for _, text in rest)
        if re.fullmatch(r"\w+", tail):
            tails.add(tail)
