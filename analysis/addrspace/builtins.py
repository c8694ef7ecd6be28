"""Which address spaces a built-in function's pointer parameters take, read off the catalogue.

The spec lists a built-in that writes through a pointer (`vstore4`, `modf`, `atomic_add`,
`async_work_group_copy`'s destination) once per space it takes: `__global`, `__local`,
`__private`, and an unqualified overload for the generic address space (OpenCL C 2.0, or 3.0
with `__opencl_c_generic_address_space`; before that an unqualified pointer is `__private`).
`__constant` appears only where the built-in reads (`vload4`). A pointer whose space none of
the overloads at its position encloses matches no overload: clang's "no matching function".
"""

from __future__ import annotations

from functools import lru_cache

from cllint.analysis.catalogue import catalogue
from cllint.analysis.model.types import AddressSpace, has_generic
from cllint.analysis.target import Target
from cllint.analysis.lazy_re import lazy

_SPACE_WORD = lazy(r"\b__(global|local|private|constant|generic)\b")

Spaces = frozenset[AddressSpace]


@lru_cache(maxsize=4096)
def pointer_spaces(name: str, arity: int, unqualified: AddressSpace | None) -> tuple[Spaces | None, ...] | None:
    """Per argument position of a call to built-in `name` with `arity` arguments: the spaces a
    pointer argument may point to there, or None where some overload takes no pointer (or a
    type written with a placeholder, such as `gentype *`, whose meaning is not the catalogue's
    to say). None for the whole call when no overload has that many parameters.

    `unqualified`: what the catalogue's unqualified overloads take on the target (see
    `unqualified_space`); None where they do not exist."""
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
            slot = found[i]
            if slot is None:
                continue
            space = _pointee_space(param.type)
            if space is _NOT_A_POINTER:
                found[i] = None
            elif space is _UNQUALIFIED:
                if unqualified is not None:
                    slot.add(unqualified)
            else:
                slot.add(space)
    if found is None:
        return None
    return tuple(frozenset(s) if s else None for s in found)


def unqualified_space(target: Target) -> AddressSpace | None:
    """What an unqualified pointer parameter of a built-in takes: generic pointers where the
    target has the generic address space, `__private` ones before OpenCL C 2.0, and nothing in
    OpenCL C 3.0 without the feature, whose headers declare only the named overloads."""
    if has_generic(target):
        return AddressSpace.GENERIC
    return AddressSpace.PRIVATE if target.version.major < 2 else None


_NOT_A_POINTER = object()
_UNQUALIFIED = object()


def _pointee_space(written: str) -> object:
    """The space a parameter type as the catalogue writes it points to, `_UNQUALIFIED`, or
    `_NOT_A_POINTER` when it is not a plain one-level pointer to a named type."""
    text = written.strip()
    if not text.endswith("*") or text.count("*") != 1 or "gentype" in text or "(" in text:
        return _NOT_A_POINTER
    m = _SPACE_WORD.search(text)
    if m is None:
        return _UNQUALIFIED
    return AddressSpace.from_keyword(m.group(1)) or _NOT_A_POINTER


def spelled(spaces: Spaces) -> str:
    """`'__global', '__local' or '__private'`, in a fixed order."""
    names = [f"'{s.spelling}'" for s in AddressSpace.ORDER if s in spaces]
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"


__all__ = ["pointer_spaces", "spelled", "unqualified_space"]
