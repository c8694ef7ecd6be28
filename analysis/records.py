"""`replace` for records written as plain classes, so defining them costs nothing at start-up.

A `@dataclass` compiles the source of its generated methods when the class is defined (~0.3 ms
a record, ~110 records on the lint path, issue 32), so the records on the start-up path are plain
classes with their `__init__`, `__eq__`, `__hash__` and `__repr__` written out, `__slots__` where
they are immutable by convention, and `__match_args__` naming the constructor's fields in order.
`replace` works on those and on any remaining dataclass alike, as `dataclasses.replace` does:
a new record built by the class's own `__init__` from the old one's fields and the changes.
"""

from __future__ import annotations

from typing import Any, TypeVar

T = TypeVar("T")


def replace(obj: T, /, **changes: Any) -> T:
    cls = type(obj)
    if hasattr(cls, "__dataclass_fields__"):
        import dataclasses  # only records not yet written out

        return dataclasses.replace(obj, **changes)  # type: ignore[type-var]
    names: tuple[str, ...] = cls.__match_args__  # type: ignore[attr-defined]
    args = {n: changes.pop(n) if n in changes else getattr(obj, n) for n in names}
    if changes:
        raise TypeError(f"{cls.__qualname__} has no field(s) {', '.join(sorted(changes))} to replace")
    return cls(**args)


class SlotRecord:
    """Equality, hashing and `repr` read from a record's `__match_args__` (its constructor's
    fields in order), for plain-class records that write only `__slots__`, `__match_args__`
    and `__init__`: the three methods each such record otherwise writes out again."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _fields(self) -> tuple[Any, ...]:
        return tuple(getattr(self, n) for n in self.__match_args__)

    def __repr__(self) -> str:
        inner = ", ".join(f"{n}={getattr(self, n)!r}" for n in self.__match_args__)
        return f"{type(self).__qualname__}({inner})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._fields() == other._fields()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._fields())


class FixedMember:
    """A member of a fixed set made once, as an `Enum`'s is: equal only to itself, with its
    `name` and `value`, hashed by its name, kept itself by copying and pickling. Not an `Enum`:
    the address spaces, symbol and scope kinds, rule groups and fix availabilities (27 members)
    cost ~3.5M instructions of every start-up as enums (issue 32). A subclass declares its
    members as `ClassVar`s and makes them after the class with `define`."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: str) -> None:
        self.name = name
        self.value = value

    @classmethod
    def define(cls, **values: str) -> tuple:
        """Makes and sets the members `NAME=value`, in order (`Tag.define(UNNECESSARY="unnecessary")`
        sets `Tag.UNNECESSARY`); returns them, in that order."""
        made = tuple(cls(name, value) for name, value in values.items())
        for member in made:
            setattr(cls, member.name, member)
        return made

    def __repr__(self) -> str:
        return f"<{type(self).__qualname__}.{self.name}: {self.value!r}>"

    def __hash__(self) -> int:
        return hash(self.name)

    def __reduce__(self) -> tuple:
        return getattr, (type(self), self.name)
