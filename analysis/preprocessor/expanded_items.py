"""Items a macro of the program writes: read as the compiler reads them, after expansion.

The parser reads the source as written, so a line that calls a function-like macro the program
defines is read as a call, and arguments that are no expressions (`VECTORIZE(OVERLOAD INLINE,
float, fmax, float)`, a declaration specifier list; libclc writes its vector overloads so) or a
call that is a declarator (`DECLARE_TABLE(float2, LOG, 129) = {...};`) leave syntax errors
behind, the rest of the file sometimes with them. The compiler sees the expansion. An item that
starts a line with such a call is expanded with the file's macros (`PreprocessorView.expand`),
followed by what ends the item (a `;`, an initializer up to its `;`, a braced body); when that
text parses cleanly the item is the macro's business, and the file is read with it blanked.
A call whose expansion does not parse keeps its errors.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Any

from cllint.grammar import parse

from .directives import blank_comments
from .empty_macros import empty_macro_ranges, has_empty_macros
from .expr import tokenize
from cllint.analysis.lazy_re import lazy

__all__ = ["blanked", "expansion_items"]

_LINE_CALL = lazy(rb"^[ \t]*([A-Za-z_]\w*)[ \t]*\(", re.M)
_PREFIXED_CALL = lazy(rb"^[ \t]*((?:[A-Za-z_]\w*[ \t]+)+)([A-Za-z_]\w*)[ \t]*\(", re.M)
# Words, then a call: declaration specifiers before a name a macro makes.
# (the specifiers may end the line before: `RATTR float4` then `OCKL_MANGLE_T(image_load,1D)(...)`)
_SPECIFIED_CALL = lazy(rb"^[ \t]*(?:(?:[A-Za-z_]\w*[ \t]+)+|(?:[A-Za-z_]\w*[ \t]+)*[A-Za-z_]\w*[ \t]*\n[ \t]*)"
                       rb"([A-Za-z_]\w*)[ \t]*\(", re.M)
_IDENTIFIER = lazy(r"[A-Za-z_]\w*")
_MAX_ITEMS = 2_000  # calls judged in one file
_MAX_ITEM_BYTES = 64 * 1024
_WRAP = (b"void __cllint_item(void) {\n", b"\n}\n")  # a statement-level item is read in a body


def _close(text: bytes, at: int, opening: bytes, closing: bytes) -> int | None:
    """The index of the bracket that closes the one at `at` (literals skipped); None if none."""
    depth = 0
    i, n = at, len(text)
    while i < n:
        c = text[i:i + 1]
        if c in (b'"', b"'"):
            j = i + 1
            while j < n and text[j:j + 1] not in (c, b"\n"):
                j += 2 if text[j:j + 1] == b"\\" else 1
            i = j + 1
            continue
        if c == opening:
            depth += 1
        elif c == closing:
            depth -= 1
            if depth == 0:
                return i
        elif c == b"#" and (i == 0 or text[:i].rstrip(b" \t").endswith(b"\n")):
            return None  # a directive inside the call: not judged here
        i += 1
    return None


def _item_end(text: bytes, close: int) -> int:
    """Where the item that the call at `close` ends goes on to: a `;` on the call's line, an
    initializer or a braced body after it; else the call alone."""
    i = close + 1
    n = len(text)
    while i < n and text[i:i + 1] in b" \t\r\n":
        i += 1
    if i >= n:
        return close + 1
    c = text[i:i + 1]
    if c == b";":
        return i + 1
    if c == b"{":
        end = _close(text, i, b"{", b"}")
        return close + 1 if end is None else end + 1
    if (body := _definition_body(text, i)) is not None:
        return body  # `KERNEL(64) name(P(T2) out) {...}`: a definition the call heads
    if b"\n" in text[close + 1:i]:
        return close + 1  # the next line is another item
    depth = 0  # `) = {...};`, `) [4];`, `) __attribute__((x));`: up to the `;` outside brackets
    while i < n:
        c = text[i:i + 1]
        if c in b"({[":
            depth += 1
        elif c in b")}]":
            depth -= 1
            if depth < 0:
                return close + 1
        elif c == b";" and depth == 0:
            return i + 1
        elif c == b"#" and text[:i].rstrip(b" \t").endswith(b"\n"):
            return close + 1
        i += 1
    return close + 1


_DECLARATOR_HEAD = lazy(rb"[A-Za-z_]\w*[ \t\r\n]*\(")


def _skip_space(text: bytes, i: int) -> int:
    while i < len(text) and text[i:i + 1] in b" \t\r\n":
        i += 1
    return i


def _signature_close(text: bytes, at: int) -> int | None:
    """The `)` that ends the parameter list of `name(...) {` starting at `at`, or None."""
    m = _DECLARATOR_HEAD.match(text, at)
    if m is None:
        return None
    sig = _close(text, m.end() - 1, b"(", b")")
    if sig is None:
        return None
    i = _skip_space(text, sig + 1)
    return sig if text[i:i + 1] == b"{" else None


def _definition_body(text: bytes, at: int) -> int | None:
    """The end of `name(...) {...}` starting at `at` (a function definition whose head the
    call before it writes), or None."""
    sig = _signature_close(text, at)
    if sig is None:
        return None
    end = _close(text, _skip_space(text, sig + 1), b"{", b"}")
    return None if end is None else end + 1


def _signature_end(text: bytes, close: int) -> int | None:
    """The `)` that ends the parameter list of `name(...) {` right after the call that closes
    at `close` (a definition the call heads), or None."""
    return _signature_close(text, _skip_space(text, close + 1))


def _parses(text: bytes) -> bool:
    if not parse(text).root_node.has_error:
        return True
    return not parse(_WRAP[0] + text + _WRAP[1]).root_node.has_error


def expansion_items(source: bytes, view: Any, error_starts: list[int]) -> list[tuple[int, int]]:
    """Byte ranges of the items that start a line with a call of a function-like macro the
    program defines, whose expansion parses, and that an error lies in or after (before the
    next such call)."""
    if view is None or not error_starts:
        return []
    writers = _item_writers(view)
    if not _may_call_at_line_start(source, view) and not writers:
        keywords = _keyword_defined(view) and _KEYWORD.search(source) is not None
        empties = has_empty_macros(view)
        if not keywords and not empties:
            return []
        text, errors = blank_comments(source), sorted(error_starts)
        return ((_keyword_macros(text, view, errors) if keywords else [])
                + (empty_macro_ranges(text, view, errors) if empties else []))
    text = blank_comments(source)
    calls: list[tuple[int, int]] = []  # (start of the call, start of its name)
    for m in _LINE_CALL.finditer(text):
        macro = view.macro_at(m.group(1).decode(), m.start(1))
        if macro is not None and macro.params is not None:
            calls.append((m.start(1), m.end() - 1))
            if len(calls) >= _MAX_ITEMS:
                break
    # `CONSTATTR BGEN(fmod)`: object-like macros (attributes) before the call, read with it
    for m in _PREFIXED_CALL.finditer(text):
        if len(calls) >= _MAX_ITEMS:
            break
        words = _IDENTIFIER.findall(m.group(1).decode())
        if all((w := view.macro_at(word, m.start(1))) is not None and w.params is None for word in words):
            macro = view.macro_at(m.group(2).decode(), m.start(2))
            if macro is not None and macro.params is not None:
                calls.append((m.start(1), m.end() - 1))
    calls.sort()
    if writers:  # `DEC` alone on its line, `S __attribute__((packed));`: object-like, no `(`
        for m in _LINE_WORD.finditer(text):
            if m.group(1) in writers and len(calls) < 2 * _MAX_ITEMS:
                macro = view.macro_at(m.group(1).decode(), m.start(1))
                if macro is not None and macro.params is None:
                    calls.append((m.start(1), -m.end(1)))
        calls.sort()
    errors = sorted(error_starts)
    out: list[tuple[int, int]] = []
    for k, (start, paren) in enumerate(calls):
        limit = calls[k + 1][0] if k + 1 < len(calls) else len(source) + 1
        first = bisect_left(errors, start)
        if first == len(errors) or errors[first] >= limit:
            continue
        # (an object-like macro's item ends its name: `paren` holds minus the name's end)
        close = _close(text, paren, b"(", b")") if paren >= 0 else -paren - 1
        if close is None or close - start > _MAX_ITEM_BYTES:
            continue
        end = _item_end(text, close)
        expanded = view.expand(tokenize(text[start:close + 1].decode("utf-8", "replace")), start)
        if not expanded:
            continue
        words = " ".join(t.text for t in expanded).encode()
        if _parses(words + b" " + text[close + 1:end]):
            out.append((start, end))
            continue
        if paren < 0:
            continue
        # a definition the call heads: its parameters may be written with macros too
        # (`P(T2) out`), so the signature is read expanded; the body stays, judged as written
        sig = _signature_end(text, close)
        if sig is None or sig - start > _MAX_ITEM_BYTES:
            continue
        whole = view.expand(tokenize(text[start:sig + 1].decode("utf-8", "replace")), start)
        if whole and _parses(" ".join(t.text for t in whole).encode() + b" {}"):
            out.append((start, sig + 1))
    empties = empty_macro_ranges(text, view, errors) if has_empty_macros(view) else []
    names = _macro_names(text, view, errors)
    if names:  # a call that names a function keeps its first letter as the name (not blanked whole)
        named = {start - 1 for start, _ in names}
        out = [item for item in out if item[0] not in named]
    return out + names + _keyword_macros(text, view, errors) + empties


_LINE_WORD = lazy(rb"^[ \t]*([A-Za-z_]\w*)\b(?![ \t]*\()", re.M)
# What makes an object-like macro write items: a body with a statement end, a brace or a call.
_WRITES_ITEMS = lazy(r"[;{}]|\w\s*\(")


def _item_writers(view: Any) -> frozenset[bytes]:
    """Object-like macros of the program whose body may write top-level items (`#define DEC
    DEF(char); DEF(uchar)`, `#define S struct s { ... }`): the names a line may start with
    that the parser reads as a type or a declarator, and the compiler as those items."""
    definitions = getattr(view, "macro_definitions", None)
    if definitions is None:
        return frozenset()
    return frozenset(m.name.encode() for m in definitions()
                     if m.params is None and m.body and _WRITES_ITEMS.search(m.body) is not None)


# Keywords a program may define as object-like macros (`#define auto __auto_type`,
# `#define register`): the parser reads the keyword, the compiler its expansion.
_KEYWORD = lazy(rb"\b(?:auto|register|inline|restrict|volatile)\b")


_KEYWORDS = frozenset({"auto", "register", "inline", "restrict", "volatile"})


def _keyword_defined(view: Any) -> bool:
    """Whether the program defines one of `_KEYWORDS` as an object-like macro anywhere: else
    `_keyword_macros` finds nothing, and a keystroke with a syntax error need not blank the
    whole file's comments to look (`inline` is in most files)."""
    definitions = getattr(view, "macro_definitions", None)
    return definitions is None or any(m.params is None and m.name in _KEYWORDS for m in definitions())


def _keyword_macros(text: bytes, view: Any, errors: list[int]) -> list[tuple[int, int]]:
    """On each line with an error, the keywords the program has redefined as object-like
    macros there: blanked, the line reads as what is left (a declaration's name and
    initializer, or the declaration without the keyword)."""
    out: list[tuple[int, int]] = []
    seen: set[int] = set()
    for at in errors:
        start = text.rfind(b"\n", 0, at) + 1
        if start in seen:
            continue
        seen.add(start)
        end = text.find(b"\n", at)
        for m in _KEYWORD.finditer(text, start, len(text) if end < 0 else end):
            macro = view.macro_at(m.group().decode(), m.start())
            if macro is not None and macro.params is None:
                out.append((m.start(), m.end()))
    return out


def _macro_names(text: bytes, view: Any, errors: list[int]) -> list[tuple[int, int]]:
    """A declarator whose name a call makes after its specifiers (`kernel void NAME(k, 8, 16)
    (global float *c) {`, arguments that are no parameter declarations), with an error in the
    head: the call but its first letter, so that the head reads as one naming a function by
    that letter. Only a call that expands to one identifier, as a name must."""
    out: list[tuple[int, int]] = []
    for m in _SPECIFIED_CALL.finditer(text):
        name_at, paren = m.start(1), m.end() - 1
        leading: list[tuple[int, int]] = []  # attribute-writing calls before the head's
        for _ in range(_MAX_LEADING_CALLS):  # (`extern AATTR("x") float NAME(n)(uint);`: the next call)
            macro = view.macro_at(text[name_at:paren].strip().decode(), name_at)
            close = _close(text, paren, b"(", b")") if macro is not None and macro.params is not None else None
            if close is None or close - name_at > _MAX_ITEM_BYTES:
                break
            params = _skip_space(text, close + 1)
            if text[params:params + 1] == b"(":
                break
            nxt = _NEXT_CALL.match(text, close + 1)
            written = view.expand(tokenize(text[name_at:close + 1].decode("utf-8", "replace")), name_at)
            if nxt is None or not written or written[0].text != "__attribute__":
                break
            leading.append((name_at, close + 1))
            name_at, paren = nxt.start(1), nxt.end() - 1
        else:
            continue
        if close is None or close - name_at > _MAX_ITEM_BYTES:
            continue
        head_end = _close(text, params, b"(", b")") if text[params:params + 1] == b"(" else None
        if head_end is None:
            continue
        first = bisect_left(errors, m.start())
        if first == len(errors) or errors[first] > head_end:
            continue  # no error in the head
        expanded = view.expand(tokenize(text[name_at:close + 1].decode("utf-8", "replace")), name_at)
        if expanded and len(expanded) == 1 and _IDENTIFIER.fullmatch(expanded[0].text):
            out.extend(leading)  # (an attribute is no syntax: read without it)
            out.append((name_at + 1, close + 1))
            if len(out) >= _MAX_ITEMS:
                break
    return out


_NEXT_CALL = lazy(rb"[ \t]+(?:[A-Za-z_]\w*[ \t]+)*([A-Za-z_]\w*)[ \t]*\(")  # words, then a call
_MAX_LEADING_CALLS = 3  # attribute-writing calls before the one that names the head
_DEFINE_HEAD = lazy(rb"[ \t]*#[ \t]*define[ \t]+")
_PREFILTER_NAMES = 32  # more function-like macros (libclc's): scanning for each costs more than the scan


def _may_call_at_line_start(source: bytes, view: Any) -> bool:
    """False only when no function-like macro of the program is named in `source` but in its
    own `#define` head: then no line starts with a call of one (CL001 asks on every keystroke
    with a syntax error, and blanking a 90 KB file's comments to look costs ~2 ms). A name in a
    comment, a longer word or anywhere else answers True, as does a program with many macros."""
    definitions = getattr(view, "macro_definitions", None)
    if definitions is None:
        return True
    names = {m.name for m in definitions() if m.params is not None}
    if len(names) > _PREFILTER_NAMES:
        return True
    for name in names:
        word = name.encode()
        at = source.find(word)
        while at != -1:
            line = source.rfind(b"\n", 0, at) + 1
            if _DEFINE_HEAD.fullmatch(source, line, at) is None:
                return True
            at = source.find(word, at + len(word))
    return False


def blanked(source: bytes, ranges: list[tuple[int, int]]) -> bytes:
    """`source` with each range's bytes turned to spaces, lines kept."""
    data = bytearray(source)
    for start, end in ranges:
        data[start:end] = re.sub(rb"[^\n]", b" ", bytes(data[start:end]))
    return bytes(data)


_OVERLOADABLE_HEAD = lazy(rb"\b(?:__)?overloadable(?:__)?\b\s*\)\s*\)[^;{}()]*?\b([A-Za-z_]\w*)\s*\(")
_OVERLOADABLE_WORDS = frozenset({"overloadable", "__overloadable__"})  # clang reads both spellings


def macro_written_overloads(source: bytes, view: Any) -> frozenset[str]:
    """Functions declared `overloadable` through the program's macros: a head that names a
    macro standing for the attribute (`_CLC_OVERLOAD float fmax(...)`), and the functions a
    line-start macro call declares with it (`_CLC_UNARY_VECTORIZE(_CLC_OVERLOAD _CLC_DEF, float,
    acosh, float)`: acosh's vector overloads)."""
    if view is None:
        return frozenset()
    macros = list(view.macro_definitions())
    if not any("overloadable" in m.body for m in macros):
        return frozenset()
    out: set[str] = set()
    standing = {m.name for m in macros if m.params is None and _expands_to_overloadable(view, m.name, source)}
    if standing:
        words = b"|".join(re.escape(n.encode()) for n in sorted(standing))
        head = re.compile(rb"\b(?:" + words + rb")\b[^;{}()]*?\b([A-Za-z_]\w*)\s*\(")
        out.update(m.group(1).decode() for m in head.finditer(source) if m.group(1).decode() not in standing)
    text = blank_comments(source)
    for k, m in enumerate(_LINE_CALL.finditer(text)):
        if k >= _MAX_ITEMS:
            break
        macro = view.macro_at(m.group(1).decode(), m.start(1))
        if macro is None or macro.params is None:
            continue
        close = _close(text, m.end() - 1, b"(", b")")
        if close is None or close - m.start(1) > _MAX_ITEM_BYTES:
            continue
        expanded = view.expand(tokenize(text[m.start(1):close + 1].decode("utf-8", "replace")), m.start(1))
        if expanded and any(t.text in _OVERLOADABLE_WORDS for t in expanded):
            words_text = " ".join(t.text for t in expanded).encode()
            out.update(h.group(1).decode() for h in _OVERLOADABLE_HEAD.finditer(words_text))
    return frozenset(out)


def _expands_to_overloadable(view: Any, name: str, source: bytes) -> bool:
    expanded = view.expand(tokenize(name), len(source))
    return bool(expanded) and any(t.text in _OVERLOADABLE_WORDS for t in expanded)
