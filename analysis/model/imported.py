"""Declarations a file's headers make, as the file's index starts with them.

The model reads no files: what the included headers declare at file scope arrives as plain
types (`analysis/semantic/header_types.py` reads them). They are seeded into the file index
before its own items, as the preprocessor puts them before the declarations that follow the
`#include`; a name the file declares again is the file's.
"""

from __future__ import annotations


from .decls import Typedef
from .types import Function, Type


class HeaderFunction:
    """A function a header declares: its type and its parameters' names (None: unnamed)."""

    __slots__ = ("type", "param_names", "param_cv")
    type: Function
    param_names: tuple[str | None, ...]
    param_cv: tuple[frozenset[str], ...]

    __match_args__ = ("type", "param_names", "param_cv")

    def __init__(
        self,
        type: Function,
        param_names: tuple[str | None, ...],
        param_cv: tuple[frozenset[str], ...],
    ) -> None:
        self.type = type
        self.param_names = param_names
        self.param_cv = param_cv

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"type={self.type!r}, " f"param_names={self.param_names!r}, "
                f"param_cv={self.param_cv!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.type, self.param_names, self.param_cv)
        theirs = (other.type, other.param_names, other.param_cv)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.type, self.param_names, self.param_cv))


class Imported:
    """What the headers declare that is read completely; `key` tells equal ones apart."""

    __slots__ = ("key", "typedefs", "tags", "functions", "memo")
    key: bytes
    typedefs: dict[str, Typedef]
    tags: dict[str, Type]
    functions: dict[str, HeaderFunction]
    # The model's symbols for `functions`, made once (model/symbols.py): shared by every
    # model of a file while its headers are unchanged, as they are across keystrokes.
    memo: dict[str, object]

    __match_args__ = ("key", "typedefs", "tags", "functions", "memo")

    def __init__(
        self,
        key: bytes,
        typedefs: dict[str, Typedef] | None = None,
        tags: dict[str, Type] | None = None,
        functions: dict[str, HeaderFunction] | None = None,
        memo: dict[str, object] | None = None,
    ) -> None:
        self.key = key
        self.typedefs = {} if typedefs is None else typedefs
        self.tags = {} if tags is None else tags
        self.functions = {} if functions is None else functions
        self.memo = {} if memo is None else memo

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"key={self.key!r}, " f"typedefs={self.typedefs!r}, "
                f"tags={self.tags!r}, " f"functions={self.functions!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.key, self.typedefs, self.tags, self.functions)
        theirs = (other.key, other.typedefs, other.tags, other.functions)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.key, self.typedefs, self.tags, self.functions))


NOTHING = Imported(b"")
