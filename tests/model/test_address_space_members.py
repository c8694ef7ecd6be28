"""Address spaces are members made once, as the `Enum` they replace behaved (issue 32, session
19: seven members made at every start-up): identity, `name`, `value` and `spelling`, the
`Enum`'s repr, lookups by keyword and by clang's attribute, a fixed order, and themselves
through copying and pickling. Cases written before the change; the last (held out) was run
once it was done."""

from __future__ import annotations

import copy
import pickle

from cllint.analysis.addrspace.builtins import spelled
from cllint.analysis.model.types import AddressSpace


def test_members_name_value_spelling_and_repr() -> None:
    g = AddressSpace.GLOBAL
    assert g is AddressSpace.GLOBAL and g.name == "GLOBAL" and g.value == g.spelling == "__global"
    assert g != "__global" and g != AddressSpace.GLOBAL_DEVICE
    assert repr(AddressSpace.CONSTANT) == "<AddressSpace.CONSTANT: '__constant'>"


def test_lookups_by_keyword_and_attribute() -> None:
    assert AddressSpace.from_keyword("global") is AddressSpace.GLOBAL
    assert AddressSpace.from_keyword(" __local ") is AddressSpace.LOCAL
    assert AddressSpace.from_keyword("__generic") is AddressSpace.GENERIC
    assert AddressSpace.from_keyword("global_device") is None and AddressSpace.from_keyword("int") is None
    assert AddressSpace.from_attribute("opencl_global_device") is AddressSpace.GLOBAL_DEVICE
    assert AddressSpace.from_attribute("__opencl_private__") is AddressSpace.PRIVATE


def test_spaces_are_listed_in_a_fixed_order_and_survive_copies() -> None:
    # held out
    assert spelled({AddressSpace.LOCAL, AddressSpace.PRIVATE, AddressSpace.GLOBAL}) == \
        "'__private', '__global' or '__local'"
    assert spelled({AddressSpace.CONSTANT}) == "'__constant'"
    for s in (AddressSpace.PRIVATE, AddressSpace.GLOBAL_HOST):
        assert copy.deepcopy(s) is s and pickle.loads(pickle.dumps(s)) is s
