"""Which address spaces a built-in function's pointer parameters take, read off the catalogue.

The spec lists a built-in that writes through a pointer (`vstore4`, `modf`, `atomic_add`,
`async_work_group_copy`'s destination) once per space it takes: `__global`, `__local`,
`__private`, and an unqualified overload for the generic address space (OpenCL C 2.0, or 3.0
with `__opencl_c_generic_address_space`; before that an unqualified pointer is `__private`).
`__constant` appears only where the built-in reads (`vload4`). A pointer whose space none of
the overloads at its position encloses matches no overload: clang's "no matching function".
"""

from __future__ import annotations

import re
from functools import lru_cache

from cllint.analysis.catalogue import catalogue
from cllint.analysis.model.types import AddressSpace

_SPACE_WORD = re.compile(r"\b__(global|local|private|constant|generic)\b")
_WORD = re.compile(r"[A-Za-z_]\w*")

Spaces = frozenset[AddressSpace]


@lru_cache(maxsize=4096)
def pointer_spaces(name: str, arity: int, generic: bool) -> tuple[Spaces | None, ...] | None:
    """Per argument position of a call to built-in `name` with `arity` arguments: the spaces a
    pointer argument may point to there, or None where some overload takes no pointer (or a
    type written with a placeholder, such as `gentype *`, whose meaning is not the catalogue's
    to say). None for the whole call when no overload has that many parameters.

    `generic`: the target has the generic address space, so unqualified overloads take
    generic pointers; without it they take `__private` ones."""
    builtin = catalogue().function(name)
    if builtin is None:
        return None
    found: list[set[AddressSpace] | None] | None = None
    for overload in builtin.overloads:
        if len(overload.params) != arity or not overload.returns.strip():
            continue  # another arity, or a row the generator read from prose
        if found is None:
            found = [set() for _ in range(arity)]
        for i, param in enumerate(overload.params):
            space = _pointee_space(param.type, generic)
            slot = found[i]
            if slot is None:
                continue
            if space is None:
                found[i] = None
            else:
                slot.add(space)
    if found is None:
        return None
    return tuple(frozenset(s) if s else None for s in found)


def _pointee_space(written: str, generic: bool) -> AddressSpace | None:
    """The space a parameter type as the catalogue writes it points to; None if it is not a
    plain one-level pointer to a named type."""
    text = written.strip()
    if not text.endswith("*") or text.count("*") != 1 or "gentype" in text or "(" in text:
        return None
    m = _SPACE_WORD.search(text)
    if m is not None:
        return AddressSpace.from_keyword(m.group(1))
    return AddressSpace.GENERIC if generic else AddressSpace.PRIVATE


def spelled(spaces: Spaces) -> str:
    """`'__global', '__local' or '__private'`, in a fixed order."""
    names = [f"'{s.spelling}'" for s in AddressSpace if s in spaces]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


__all__ = ["pointer_spaces", "spelled"]
