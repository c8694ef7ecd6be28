"""Which pointer conversions the spec allows between address spaces (OpenCL C 6.7.4, 6.7.5).

Implicit: a pointer converts to a pointer into the same space or, where the target has the
generic address space, to a generic pointer from private, local or global. Nested levels must
match exactly. Explicit casts may also go from generic back to a named space. `__constant` is
disjoint from every other space.
"""

from __future__ import annotations

from cllint.analysis.model.types import AddressSpace, Array, Function, Pointer, Type, is_enclosed


class Mismatch:
    """What changes address space: the words CL101 ends with. Plain strings compared by
    identity, not an `Enum` made at every start-up (issue 32)."""

    POINTER = "pointer"
    NESTED = "nested pointer"


def pointer_of(t: Type) -> Pointer | None:
    """`t` as a pointer after array decay; None for everything else (and for function pointers).

    Arrays whose element space is unknown give None: their decayed space would be a guess.
    """
    if isinstance(t, Array):
        if t.space is None:
            return None
        t = t.decay()
    if isinstance(t, Pointer) and not isinstance(t.pointee, Function):
        return t
    return None


def assign_mismatch(src: Pointer, dst: Pointer) -> str | None:
    """Why an implicit conversion from `src` to `dst` is not allowed, or None if it is."""
    if not is_enclosed(src.space, dst.space):
        return Mismatch.POINTER
    a, b = src.pointee, dst.pointee
    while isinstance(a, Pointer) and isinstance(b, Pointer):
        if a.space is not b.space:
            return Mismatch.NESTED
        a, b = a.pointee, b.pointee
    return None


def overlapping(a: AddressSpace, b: AddressSpace) -> bool:
    """Whether one space encloses the other (comparison, subtraction, `?:` arms)."""
    return is_enclosed(a, b) or is_enclosed(b, a)


def cast_allowed(src: Pointer, dst: Pointer) -> bool:
    """Explicit casts: within one space, or between generic and a space it encloses."""
    return overlapping(src.space, dst.space)


def render(t: Type) -> str:
    """A type as clang writes it in address-space messages: every level's space shown."""
    if isinstance(t, Array) and t.space is not None:
        return render(t.decay())
    return t.render(full=True).replace(" *", " *").strip()


__all__ = ["Mismatch", "assign_mismatch", "cast_allowed", "overlapping", "pointer_of", "render"]
