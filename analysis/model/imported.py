"""Declarations a file's headers make, as the file's index starts with them.

The model reads no files: what the included headers declare at file scope arrives as plain
types (`analysis/semantic/header_types.py` reads them). They are seeded into the file index
before its own items, as the preprocessor puts them before the declarations that follow the
`#include`; a name the file declares again is the file's.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .decls import Typedef
from .types import Function, Type


@dataclass(frozen=True)
class HeaderFunction:
    """A function a header declares: its type and its parameters' names (None: unnamed)."""

    type: Function
    param_names: tuple[str | None, ...]
    param_cv: tuple[frozenset[str], ...]


@dataclass(frozen=True)
class Imported:
    """What the headers declare that is read completely; `key` tells equal ones apart."""

    key: bytes
    typedefs: dict[str, Typedef] = field(default_factory=dict)
    tags: dict[str, Type] = field(default_factory=dict)
    functions: dict[str, HeaderFunction] = field(default_factory=dict)
    # The model's symbols for `functions`, made once (model/symbols.py): shared by every
    # model of a file while its headers are unchanged, as they are across keystrokes.
    memo: dict[str, object] = field(default_factory=dict, compare=False, repr=False)


NOTHING = Imported(b"")
