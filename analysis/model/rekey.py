"""A type read before, with the file's structs, unions and enums it names moved to their new keys.

A file's tag is keyed by the offset of its definition (decls.py), so a body edit above a tag
changes its key though nothing about it changed. A function head read before names the tag by
its old key: `rekeyed` gives the same type naming the index's tag objects at the new keys, as
a reading of the head from scratch names them (issue 32: a head after an enum below the typing
point was read again on every keystroke). Anything it cannot place raises `Stale`, and the head
is read again.
"""

from __future__ import annotations

from collections.abc import Callable

from .types import Array, Enum_, Function, Opaque, Pipe, Pointer, Scalar, Struct, Type, Unknown, Vector


class Stale(Exception):
    """A tag the new index does not hold where its key moved, or a type this module does not know."""


_LEAVES = (Scalar, Vector, Opaque, Unknown)  # (a vector's element is a scalar)


def rekeyed(t: Type, key_of: Callable[[int], int], tags: dict[int, Type]) -> Type:
    """`t` with each file tag (key >= 0; a header's are below zero) replaced by `tags[key_of(key)]`,
    which must be a tag of the same kind and name; `t` itself where nothing moved."""
    cls = t.__class__
    if cls is Struct or cls is Enum_:
        if t.key < 0:  # type: ignore[attr-defined]
            return t
        found = tags.get(key_of(t.key))  # type: ignore[attr-defined]
        if found is None or found.__class__ is not cls or found.name != t.name or \
                (cls is Struct and found.union != t.union):  # type: ignore[attr-defined]
            raise Stale
        return found
    if isinstance(t, _LEAVES):
        return t
    if cls is Pointer:
        inner = rekeyed(t.pointee, key_of, tags)  # type: ignore[attr-defined]
        return t if inner is t.pointee else Pointer(inner, t.space, t.explicit, t.qualifiers)  # type: ignore[attr-defined]
    if cls is Array:
        inner = rekeyed(t.elem, key_of, tags)  # type: ignore[attr-defined]
        return t if inner is t.elem else Array(inner, t.size, t.space)  # type: ignore[attr-defined]
    if cls is Pipe:
        inner = rekeyed(t.elem, key_of, tags)  # type: ignore[attr-defined]
        return t if inner is t.elem else Pipe(inner, t.access)  # type: ignore[attr-defined]
    if cls is Function:
        ret = rekeyed(t.ret, key_of, tags)  # type: ignore[attr-defined]
        params = tuple(rekeyed(p, key_of, tags) for p in t.params)  # type: ignore[attr-defined]
        if ret is t.ret and all(a is b for a, b in zip(params, t.params)):  # type: ignore[attr-defined]
            return t
        return Function(ret, params, t.variadic)  # type: ignore[attr-defined]
    raise Stale  # a kind of type added later: read the head again
