"""`FixedMember.define` makes a fixed set's members in one call: each set on the class under its
name, returned in the order written (what `AddressSpace.ORDER` is)."""

from __future__ import annotations

from typing import ClassVar

from cllint.analysis.model.types import AddressSpace
from cllint.analysis.records import FixedMember


def test_define_sets_and_returns_the_members_in_order() -> None:
    class Colour(FixedMember):
        __slots__ = ()
        RED: ClassVar[Colour]
        BLUE: ClassVar[Colour]

    made = Colour.define(RED="red", BLUE="blue")
    assert made == (Colour.RED, Colour.BLUE)
    assert (Colour.BLUE.name, Colour.BLUE.value) == ("BLUE", "blue")
    assert Colour.RED is not Colour("RED", "red")  # equal only to itself


def test_address_spaces_keep_their_order() -> None:
    assert [s.value for s in AddressSpace.ORDER] == ["__private", "__global", "__local", "__constant",
                                                     "__generic", "__global_device", "__global_host"]
