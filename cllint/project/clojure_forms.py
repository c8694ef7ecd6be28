"""Clojure host code read as forms (issue 29: the uncomplicate projects build their kernels from
`.clj` files): a small reader of lists, vectors, maps, strings and symbols, and the names `let`
and its kin bind, resolved lexically. Enough to read `(build-program! (program-with-source ctx
[a-src b-src]) (format opts wgs))`; reader macros, numbers and keywords are symbols to it."""

from __future__ import annotations

import re

from cllint.analysis.lazy_re import lazy

from .host_files import CLOJURE_SUFFIXES

# the forms whose first argument is a binding vector `[name value ...]`
_BINDING_FORMS = frozenset({b"let", b"let-release", b"with-release", b"when-let", b"if-let", b"loop",
                            b"binding", b"with-open", b"let*", b"when-some", b"if-some"})
_TOKEN = lazy(rb'"(?:[^"\\]|\\.)*"|;[^\n]*|\\.|[()\[\]{}]|[^\s,()\[\]{}";]+', re.S)
_OPENERS = {b"(": b")", b"[": b"]", b"{": b"}"}


class Form:
    """A form: `kind` is `(`, `[`, `{`, `"` (a string, `text` its contents) or `s` (a symbol)."""

    __slots__ = ("kind", "start", "end", "text", "items")

    def __init__(self, kind: str, start: int, end: int = -1, text: bytes = b"") -> None:
        self.kind, self.start, self.end, self.text = kind, start, end, text
        self.items: list[Form] = []

    def head(self) -> bytes | None:
        """The symbol a list starts with (`build-program!`), None for anything else."""
        if self.kind == "(" and self.items and self.items[0].kind == "s":
            return self.items[0].text
        return None

    def walk(self):  # noqa: ANN201 - yields every form inside, this one first
        stack = [self]
        while stack:
            f = stack.pop()
            yield f
            stack.extend(reversed(f.items))


def read_forms(text: bytes) -> Form:
    """The file as one top-level form (kind `(`, no head); unbalanced brackets close where they can."""
    top = Form("(", 0, len(text))
    stack = [top]
    for m in _TOKEN.finditer(text):
        tok = m.group()
        c = tok[:1]
        if c == b";":
            continue  # a comment
        if c in _OPENERS:
            f = Form(c.decode(), m.start())
            stack[-1].items.append(f)
            stack.append(f)
        elif c in b")]}":
            if len(stack) > 1:
                stack.pop().end = m.end()
        elif c == b'"':
            stack[-1].items.append(Form('"', m.start(), m.end(), tok[1:-1]))
        else:
            stack[-1].items.append(Form("s", m.start(), m.end(), tok))
    while len(stack) > 1:
        stack.pop().end = len(text)
    return top


class Bindings:
    """The names `let` and its kin bind in a file, each with its value and the form it is
    visible in; a name used at an offset is the binding in scope there whose value ends last
    before it (an inner `(let [src (conj src ...)])` reads the outer `src`)."""

    def __init__(self, top: Form) -> None:
        self._by_name: dict[bytes, list[tuple[int, int, Form]]] = {}
        for f in top.walk():
            if f.head() in _BINDING_FORMS and len(f.items) > 1 and f.items[1].kind == "[":
                pairs = f.items[1].items
                for name, value in zip(pairs[::2], pairs[1::2]):
                    if name.kind == "s":
                        self._by_name.setdefault(name.text, []).append((value.end, f.end, value))

    def value(self, name: bytes, at: int) -> Form | None:
        best: tuple[int, int, Form] | None = None
        for b in self._by_name.get(name, ()):
            if b[0] <= at < b[1] and (best is None or b[0] > best[0]):
                best = b
        return best[2] if best is not None else None


def line_of(text: bytes, at: int) -> int:
    return text.count(b"\n", 0, at) + 1
