"""One use of an optional feature, extension or versioned construct: what `uses` finds and
`overloads` refines by argument types (a module of its own so that both import it one way)."""

from __future__ import annotations


from ..features import DNF, Version


class Use:
    __slots__ = ("start", "end", "kind", "name", "since", "requires", "deprecated", "item", "by_types",
                 "detail", "defined_at", "floor", "overload")
    start: int
    end: int
    kind: str  # "type", "qualifier", "built-in", "constant", "literal", "block", "variable", "static variable"
    name: str  # what the message quotes
    since: Version | None
    requires: DNF  # DNF over feature/extension macros, baseline names dropped
    deprecated: Version | None
    item: tuple[int, int] | None  # the statement or declaration to wrap in a guard
    # A built-in call whose argument types decide what it needs (overloads.refine, per run:
    # the types come from declarations outside the statement, so never from a memo).
    by_types: bool
    detail: str  # what the message adds after the name: " on 'long'"
    # Spelled through a macro (macro_types.py): where it was defined, whose guards count too.
    defined_at: int | None
    # The latest version floor of an overload the call may pick, when later than `since`
    # (`clamp` on integers is 1.1, the name 1.0): the argument types decide, per run on a
    # target older than it (overloads.refine).
    floor: Version | None
    overload: str  # the overload whose floor `since` became: 'int clamp(int, int, int)'

    __match_args__ = ("start", "end", "kind", "name", "since", "requires", "deprecated", "item", "by_types",
                      "detail", "defined_at", "floor", "overload")

    def __init__(
        self,
        start: int,
        end: int,
        kind: str,
        name: str,
        since: Version | None,
        requires: DNF,
        deprecated: Version | None = None,
        item: tuple[int, int] | None = None,
        by_types: bool = False,
        detail: str = "",
        defined_at: int | None = None,
        floor: Version | None = None,
        overload: str = "",
    ) -> None:
        self.start = start
        self.end = end
        self.kind = kind
        self.name = name
        self.since = since
        self.requires = requires
        self.deprecated = deprecated
        self.item = item
        self.by_types = by_types
        self.detail = detail
        self.defined_at = defined_at
        self.floor = floor
        self.overload = overload

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"start={self.start!r}, " f"end={self.end!r}, "
                f"kind={self.kind!r}, " f"name={self.name!r}, " f"since={self.since!r}, "
                f"requires={self.requires!r}, " f"deprecated={self.deprecated!r}, " f"item={self.item!r}, "
                f"by_types={self.by_types!r}, " f"detail={self.detail!r}, "
                f"defined_at={self.defined_at!r}, " f"floor={self.floor!r}, " f"overload={self.overload!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.start, self.end, self.kind, self.name, self.since, self.requires, self.deprecated,
                self.item, self.by_types, self.detail, self.defined_at, self.floor, self.overload)
        theirs = (other.start, other.end, other.kind, other.name, other.since, other.requires,
                  other.deprecated, other.item, other.by_types, other.detail, other.defined_at, other.floor,
                  other.overload)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.start, self.end, self.kind, self.name, self.since, self.requires, self.deprecated,
                     self.item, self.by_types, self.detail, self.defined_at, self.floor, self.overload))
