"""One use of an optional feature, extension or versioned construct: what `uses` finds and
`overloads` refines by argument types (a module of its own so that both import it one way)."""

from __future__ import annotations

from dataclasses import dataclass

from ..features import DNF, Version


@dataclass(frozen=True, slots=True)
class Use:
    start: int
    end: int
    kind: str  # "type", "qualifier", "built-in", "constant", "literal", "block", "variable", "static variable"
    name: str  # what the message quotes
    since: Version | None
    requires: DNF  # DNF over feature/extension macros, baseline names dropped
    deprecated: Version | None = None
    item: tuple[int, int] | None = None  # the statement or declaration to wrap in a guard
    # A built-in call whose argument types decide what it needs (overloads.refine, per run:
    # the types come from declarations outside the statement, so never from a memo).
    by_types: bool = False
    detail: str = ""  # what the message adds after the name: " on 'long'"
    # Spelled through a macro (macro_types.py): where it was defined, whose guards count too.
    defined_at: int | None = None
    # The latest version floor of an overload the call may pick, when later than `since`
    # (`clamp` on integers is 1.1, the name 1.0): the argument types decide, per run on a
    # target older than it (overloads.refine).
    floor: Version | None = None
    overload: str = ""  # the overload whose floor `since` became: 'int clamp(int, int, int)'
