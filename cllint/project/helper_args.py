"""The strings a host helper's callers pass for one of its parameters (issue 29).

oneDNN defines a tensor's macros in one helper, `def_memory_desc_info(ctx, md, const char
*prefix)`, whose `define_int(utils::format("%s_PD%d", prefix, d), ...)` makes `DST_PD0`... only
with the prefix its callers give it: `def_memory_desc_info(kernel_ctx, conf.dst_md_info, "DST")`.
A name built from such a parameter is read with each string literal a call passes there (one
level: a caller passing its own parameter on adds nothing).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from cllint.analysis.lazy_re import lazy

from .hosts import _arguments

# A function's head and the brace opening its body: `name(params) {`, `name(params) const {`.
_HEAD = lazy(rb"([A-Za-z_]\w*)\s*\(([^(){};]*)\)\s*(?:const\s*)?(?:noexcept\s*)?\{")
_NOT_FUNCTIONS = frozenset((b"if", b"for", b"while", b"switch", b"catch", b"return", b"sizeof"))
_STRING = lazy(rb'"((?:[^"\\\n]|\\.)*)"')
_WORD = lazy(rb"[A-Za-z_]\w*")
_WINDOW = 6000  # bytes searched back for the function holding a call


def enclosing_function(text: bytes, at: int) -> tuple[bytes, list[bytes]] | None:
    """The function whose body holds `at`: its name and its parameters' names."""
    start = max(0, at - _WINDOW)
    heads = list(_HEAD.finditer(text, start, at))
    for head in reversed(heads):
        if head.group(1) in _NOT_FUNCTIONS:
            continue
        if _closes_before(text, head.end(), at):
            return None  # the nearest function ended before `at`: `at` is outside every body
        return head.group(1), [_parameter_name(p) for p in head.group(2).split(b",")]
    return None


def _closes_before(text: bytes, body: int, at: int) -> bool:
    """Whether the body opened just before `body` closes before `at`."""
    depth = 1
    for c in text[body:at]:
        if c == 123:  # '{'
            depth += 1
        elif c == 125:  # '}'
            depth -= 1
            if depth == 0:
                return True
    return False


def _parameter_name(parameter: bytes) -> bytes:
    words = _WORD.findall(parameter.split(b"=", 1)[0])
    return words[-1] if words else b""


class CallerStrings:
    """String literals that calls of a function pass at a parameter's place, over host texts
    (each function's calls found once)."""

    def __init__(self, texts: Sequence[bytes], called: Sequence[set[bytes]]) -> None:
        """`called[i]`: the words `texts[i]` calls (read with the makers: a search of every text
        for each helper's name cost seconds on oneDNN's 60 MB of host code)."""
        self.texts = texts
        self.called = called
        self._found: dict[tuple[bytes, int], list[str]] = {}

    def passed(self, function: bytes, index: int) -> list[str]:
        key = (function, index)
        if key not in self._found:
            call = re.compile(rb"(?<![\w.>])" + re.escape(function) + rb"\s*\(")
            out: set[str] = set()
            for text, words in zip(self.texts, self.called):
                if function not in words:
                    continue
                for m in call.finditer(text):
                    args = _arguments(text, m.end())
                    if index < len(args) and (s := _STRING.fullmatch(args[index])) is not None:
                        out.add(s.group(1).decode(errors="replace"))
            self._found[key] = sorted(out)[:16]
        return self._found[key]
