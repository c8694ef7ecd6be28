"""A regular expression compiled when first used, not when its module is imported.

Most of the module-level patterns on `cllint check`'s path serve inputs a given run does not
have (host code, templates, a workspace index read from its cache): on a one-line kernel 93
of 112 were never used, and compiling them all was ~7 ms of every start-up (issue 32). For
patterns a module uses on every file, `re.compile` stays the better choice: each call here
costs one more Python call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, AnyStr


class LazyPattern:
    """`re.compile(pattern, flags)`, made on the first call of one of its methods."""

    # `__dict__`: once compiled, the pattern's own methods are set on the instance, where they
    # come before the class's, so a pattern used in a loop costs no call through here.
    __slots__ = ("pattern", "flags", "_compiled", "__dict__")

    def __init__(self, pattern: AnyStr, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern | None = None

    def compiled(self) -> re.Pattern:
        got = self._compiled
        if got is None:
            got = self._compiled = re.compile(self.pattern, self.flags)
            self.__dict__.update((name, getattr(got, name)) for name in _METHODS)
        return got

    def match(self, string: Any, *args: int) -> re.Match | None:
        return self.compiled().match(string, *args)

    def fullmatch(self, string: Any, *args: int) -> re.Match | None:
        return self.compiled().fullmatch(string, *args)

    def search(self, string: Any, *args: int) -> re.Match | None:
        return self.compiled().search(string, *args)

    def finditer(self, string: Any, *args: int) -> Iterator[re.Match]:
        return self.compiled().finditer(string, *args)

    def findall(self, string: Any, *args: int) -> list[Any]:
        return self.compiled().findall(string, *args)

    def sub(self, repl: Any | Callable[[re.Match], Any], string: Any, count: int = 0) -> Any:
        return self.compiled().sub(repl, string, count)

    def subn(self, repl: Any | Callable[[re.Match], Any], string: Any, count: int = 0) -> tuple[Any, int]:
        return self.compiled().subn(repl, string, count)

    def split(self, string: Any, maxsplit: int = 0) -> list[Any]:
        return self.compiled().split(string, maxsplit)


_METHODS = ("match", "fullmatch", "search", "finditer", "findall", "sub", "subn", "split")


def lazy(pattern: AnyStr, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
