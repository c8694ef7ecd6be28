"""Template expansion: `SRC % (...)` and `SRC.format(...)` with literal arguments are filled in
before linting, so the kernel linted is the one the host builds (types and names included).

Each filled placeholder maps back to the placeholder's host range. Python itself is the
judge: the expansion is used only when the text it yields equals what Python computes for
the same literal template and arguments; anything else falls back to neutral placeholders.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any

from tree_sitter import Node

from .placeholders import Mode


_HUGE_WIDTH = re.compile(r"(?:%(?:\(\w+\))?|:)[^\w\s]*\.?\d{5,}")


class CannotExpand(Exception):
    """A placeholder the literal arguments do not fill the way Python would."""


@dataclass
class Expansion:
    positional: list[Any]
    keywords: dict[str, Any]
    expected: bytes  # what Python computes for the whole template
    _next: int = field(default=0)  # auto-numbered positions consumed (`%s`, `{}`)

    def fill(self, match: re.Match[bytes], mode: Mode) -> bytes | None:
        """The text one placeholder becomes, or None for one Python leaves alone."""
        groups = match.groupdict()
        text = match.group().decode()
        try:
            if mode is Mode.PERCENT and not groups.get("mname"):
                if groups.get("pname"):
                    return (text % self.keywords).encode()
                return (text % (self._take(),)).encode()
            if mode is Mode.FORMAT and groups.get("fname") is not None:
                name = groups["fname"].decode()
                if name == "":  # `{}` / `{:4d}`: the next position
                    text = "{" + str(self._next) + text[1:]
                    self._take()
                return text.format(*self.positional, **self.keywords).encode()
        except (KeyError, IndexError, ValueError, TypeError, AttributeError) as exc:
            raise CannotExpand(text) from exc
        return None

    def _take(self) -> Any:
        if self._next >= len(self.positional):
            raise CannotExpand("too few arguments")
        self._next += 1
        return self.positional[self._next - 1]


def _literal(node: Node) -> Any:
    """The value of a Python literal expression (strings, numbers, tuples, dicts), or raise."""
    text = (node.text or b"").decode()
    return ast.literal_eval("(" + text + "\n)")


def expansion_for(template: Node, mode: Mode, args: Node | None) -> Expansion | None:
    """The expansion of `template % args` or `template.format(args)` when every value is a
    literal; None otherwise (the placeholders then read as neutral names)."""
    if args is None or mode is Mode.PLAIN:
        return None
    try:
        value = _literal(template)
        if not isinstance(value, str):
            return None  # bytes templates and f-strings (not literals) stay as they are
        if _HUGE_WIDTH.search(value):
            return None  # `%999999999d` would have Python allocate the padding
        if mode is Mode.PERCENT:
            operand = _literal(args)
            positional = list(operand) if isinstance(operand, tuple) else [] if isinstance(operand, dict) else [operand]
            keywords = operand if isinstance(operand, dict) else {}
            expected = value % operand
        else:
            positional, keywords = [], {}
            for arg in args.named_children:
                if arg.type == "comment":
                    continue
                if arg.type == "keyword_argument":
                    name, item = arg.child_by_field_name("name"), arg.child_by_field_name("value")
                    if name is None or item is None:
                        return None
                    keywords[(name.text or b"").decode()] = _literal(item)
                elif arg.type in ("list_splat", "dictionary_splat"):
                    return None
                else:
                    positional.append(_literal(arg))
            expected = value.format(*positional, **keywords)
    except (ValueError, TypeError, SyntaxError, KeyError, IndexError, MemoryError, RecursionError):
        return None
    return Expansion(positional, keywords, expected.encode("utf-8", "surrogatepass"))
