"""The OpenCL C type system as the analyses need it (spec 6.3 types, 6.4 conversions, 6.7 address spaces).

Types are frozen, hashable values. Pointers carry the address space of what they point to,
written in the source (`explicit=True`) or inferred by the spec's rules for the target
(`default_pointee_space`). Where an object itself lives (a variable's own address space) is a
fact about the symbol, not its type, except for arrays, whose `space` says where the elements are
so that array-to-pointer decay keeps it.
"""

from __future__ import annotations

from typing import ClassVar

from cllint.analysis.database import current
from cllint.analysis.records import FixedMember, replace
from cllint.analysis.features import GENERIC, PROGRAM_SCOPE, V2_0
from cllint.analysis.target import Target
from cllint.analysis.lazy_re import lazy

__all__ = [
    "AddressSpace", "Array", "Enum_", "Field", "Function", "Opaque", "Pipe", "Pointer", "Scalar",
    "Struct", "Type", "Unknown", "Vector", "common_address_space", "default_pointee_space",
    "has_generic", "has_program_scope_globals", "is_enclosed", "program_scope_space", "swizzle_type",
    "scalar", "vector",
]


class AddressSpace(FixedMember):
    __slots__ = ()
    PRIVATE: ClassVar[AddressSpace]
    GLOBAL: ClassVar[AddressSpace]
    LOCAL: ClassVar[AddressSpace]
    CONSTANT: ClassVar[AddressSpace]
    GENERIC: ClassVar[AddressSpace]
    # clang's unified-shared-memory spaces (`__attribute__((opencl_global_device))`, ...):
    # parts of `__global`, which encloses them (Embedded C 5.1.3 subsets).
    GLOBAL_DEVICE: ClassVar[AddressSpace]
    GLOBAL_HOST: ClassVar[AddressSpace]
    ORDER: ClassVar[tuple[AddressSpace, ...]]  # all of them, in the order above

    @property
    def spelling(self) -> str:
        return self.value

    @classmethod
    def from_attribute(cls, name: str) -> AddressSpace | None:
        """clang's attribute spellings: `opencl_global` -> GLOBAL, `opencl_global_device` ->
        GLOBAL_DEVICE; anything else (numbered `address_space(N)` included) -> None."""
        return _ATTRIBUTE_SPACES.get(name.strip("_"))

    @classmethod
    def from_keyword(cls, word: str) -> AddressSpace | None:
        """`global` or `__global` -> GLOBAL; anything else -> None."""
        key = word.strip().lstrip("_")
        return getattr(cls, key.upper()) if key in ("global", "local", "constant", "private", "generic") else None


AddressSpace.ORDER = AddressSpace.define(
    PRIVATE="__private",
    GLOBAL="__global",
    LOCAL="__local",
    CONSTANT="__constant",
    GENERIC="__generic",
    GLOBAL_DEVICE="__global_device",
    GLOBAL_HOST="__global_host",
)


class NumberedSpace:
    """clang's `__attribute__((address_space(N)))`, a target's own numbering: disjoint from
    every named space; like clang-19, a generic pointer may take one implicitly. One object
    per number (`numbered_space`), so spaces still compare by identity."""

    __slots__ = ("number",)

    def __init__(self, number: int) -> None:
        self.number = number

    @property
    def spelling(self) -> str:
        return f"__attribute__((address_space({self.number})))"

    @property
    def value(self) -> str:
        return self.spelling

    @property
    def name(self) -> str:
        return f"ADDRESS_SPACE_{self.number}"

    def __repr__(self) -> str:
        return f"NumberedSpace({self.number})"


def numbered_space(number: int) -> NumberedSpace:
    """The one object for `number` in the current database ("model.numbered_spaces", never
    evicted: the types read in it compare spaces by identity; as many entries as numbers
    the code writes)."""
    table = current().table("model.numbered_spaces", None)
    found = table.get(number)
    if found is None:
        found = table.put(number, NumberedSpace(number))
    return found


_ATTRIBUTE_SPACES = {
    "opencl_global": AddressSpace.GLOBAL, "opencl_local": AddressSpace.LOCAL,
    "opencl_constant": AddressSpace.CONSTANT, "opencl_private": AddressSpace.PRIVATE,
    "opencl_generic": AddressSpace.GENERIC, "opencl_global_device": AddressSpace.GLOBAL_DEVICE,
    "opencl_global_host": AddressSpace.GLOBAL_HOST,
}
_GLOBAL_PARTS = (AddressSpace.GLOBAL_DEVICE, AddressSpace.GLOBAL_HOST)


# -- the type hierarchy -----------------------------------------------------------------


class Type:
    __slots__ = ()
    __match_args__ = ()

    def render(self, full: bool = False) -> str:
        """C syntax. `full` also shows inferred address spaces of inner pointer levels."""
        return _render(self, full)

    def __str__(self) -> str:
        return self.render()

    # Convenience predicates; the analyses ask these often.
    @property
    def is_pointer(self) -> bool:
        return isinstance(self, Pointer)

    @property
    def is_arithmetic(self) -> bool:
        return isinstance(self, (Scalar, Vector)) and not (isinstance(self, Scalar) and self.name == "void")


INTEGER_RANK = {"bool": 0, "char": 1, "uchar": 1, "short": 2, "ushort": 2, "int": 3, "uint": 3,
                "long": 4, "ulong": 4, "size_t": 4, "ptrdiff_t": 4, "intptr_t": 4, "uintptr_t": 4}
FLOAT_RANK = {"half": 5, "float": 6, "double": 7}
UNSIGNED = {"uchar", "ushort", "uint", "ulong", "size_t", "uintptr_t", "bool"}
SCALAR_NAMES = frozenset(INTEGER_RANK) | frozenset(FLOAT_RANK) | {"void"}
VECTOR_ELEMENTS = ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half", "float", "double")
VECTOR_WIDTHS = (2, 3, 4, 8, 16)
OPAQUE_PREFIXES = ("image", "sampler_t", "event_t", "clk_event_t", "queue_t", "ndrange_t", "reserve_id_t",
                   "atomic_", "memory_order", "memory_scope", "cl_mem_fence_flags", "kernel_enqueue_flags_t",
                   "clk_profiling_info")


class Scalar(Type):
    """bool, char..ulong, half/float/double, void and the size_t family (spec 6.3.1)."""

    __slots__ = ("name",)
    name: str

    __match_args__ = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name,) == (other.name,)

    def __hash__(self) -> int:
        return hash((self.name,))

    @property
    def is_integer(self) -> bool:
        return self.name in INTEGER_RANK

    @property
    def is_float(self) -> bool:
        return self.name in FLOAT_RANK

    @property
    def is_void(self) -> bool:
        return self.name == "void"


class Vector(Type):
    __slots__ = ("elem", "n")
    elem: Scalar
    n: int

    __match_args__ = ("elem", "n")

    def __init__(self, elem: Scalar, n: int) -> None:
        self.elem = elem
        self.n = n

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(elem={self.elem!r}, n={self.n!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.elem, self.n) == (other.elem, other.n)

    def __hash__(self) -> int:
        return hash((self.elem, self.n))

    @property
    def name(self) -> str:
        return f"{self.elem.name}{self.n}"


class Pointer(Type):
    __slots__ = ("pointee", "space", "explicit", "qualifiers")
    pointee: Type
    space: AddressSpace
    explicit: bool  # False: the space was inferred, not written
    qualifiers: frozenset[str]  # const/volatile of the pointee

    __match_args__ = ("pointee", "space", "explicit", "qualifiers")

    def __init__(
        self,
        pointee: Type,
        space: AddressSpace,
        explicit: bool = True,
        qualifiers: frozenset[str] = frozenset(),
    ) -> None:
        self.pointee = pointee
        self.space = space
        self.explicit = explicit
        self.qualifiers = qualifiers

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"pointee={self.pointee!r}, " f"space={self.space!r}, "
                f"explicit={self.explicit!r}, " f"qualifiers={self.qualifiers!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.pointee, self.space, self.explicit, self.qualifiers)
        theirs = (other.pointee, other.space, other.explicit, other.qualifiers)
        return mine == theirs

    def __hash__(self) -> int:
        return hash((self.pointee, self.space, self.explicit, self.qualifiers))


class Array(Type):
    __slots__ = ("elem", "size", "space")
    elem: Type
    size: int | None
    space: AddressSpace | None  # where the elements live; None: wherever the container is

    __match_args__ = ("elem", "size", "space")

    def __init__(self, elem: Type, size: int | None, space: AddressSpace | None = None) -> None:
        self.elem = elem
        self.size = size
        self.space = space

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(elem={self.elem!r}, size={self.size!r}, space={self.space!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.elem, self.size, self.space) == (other.elem, other.size, other.space)

    def __hash__(self) -> int:
        return hash((self.elem, self.size, self.space))

    def decay(self) -> Pointer:
        return Pointer(self.elem, self.space or AddressSpace.PRIVATE, self.space is not None)


class Field:
    __slots__ = ("name", "type")
    name: str
    type: Type

    __match_args__ = ("name", "type")

    def __init__(self, name: str, type: Type) -> None:
        self.name = name
        self.type = type

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r}, type={self.type!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.type) == (other.name, other.type)

    def __hash__(self) -> int:
        return hash((self.name, self.type))


class Struct(Type):
    """struct or union; `fields` is None while incomplete (a forward reference)."""

    __slots__ = ("name", "fields", "union", "key")
    name: str | None
    fields: tuple[Field, ...] | None
    union: bool
    key: int  # byte offset of the definition; tells anonymous structs apart

    __match_args__ = ("name", "fields", "union", "key")

    def __init__(
        self,
        name: str | None,
        fields: tuple[Field, ...] | None = None,
        union: bool = False,
        key: int = -1,
    ) -> None:
        self.name = name
        self.fields = fields
        self.union = union
        self.key = key

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"fields={self.fields!r}, "
                f"union={self.union!r}, " f"key={self.key!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.union, self.key) == (other.name, other.union, other.key)

    def __hash__(self) -> int:
        return hash((self.name, self.union, self.key))

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields or () if f.name == name), None)


class Enum_(Type):
    __slots__ = ("name", "key")
    name: str | None
    key: int

    __match_args__ = ("name", "key")

    def __init__(self, name: str | None, key: int = -1) -> None:
        self.name = name
        self.key = key

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r}, key={self.key!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.key) == (other.name, other.key)

    def __hash__(self) -> int:
        return hash((self.name, self.key))


class Opaque(Type):
    """Built-in types without visible structure: images, samplers, events, queues, atomics..."""

    __slots__ = ("name", "access")
    name: str
    access: str | None  # read_only / write_only / read_write for images

    __match_args__ = ("name", "access")

    def __init__(self, name: str, access: str | None = None) -> None:
        self.name = name
        self.access = access

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(name={self.name!r}, access={self.access!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.name, self.access) == (other.name, other.access)

    def __hash__(self) -> int:
        return hash((self.name, self.access))


class Pipe(Type):
    __slots__ = ("elem", "access")
    elem: Type
    access: str | None

    __match_args__ = ("elem", "access")

    def __init__(self, elem: Type, access: str | None = None) -> None:
        self.elem = elem
        self.access = access

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(elem={self.elem!r}, access={self.access!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.elem, self.access) == (other.elem, other.access)

    def __hash__(self) -> int:
        return hash((self.elem, self.access))


class Function(Type):
    __slots__ = ("ret", "params", "variadic")
    ret: Type
    params: tuple[Type, ...]
    variadic: bool

    __match_args__ = ("ret", "params", "variadic")

    def __init__(self, ret: Type, params: tuple[Type, ...], variadic: bool = False) -> None:
        self.ret = ret
        self.params = params
        self.variadic = variadic

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"ret={self.ret!r}, " f"params={self.params!r}, "
                f"variadic={self.variadic!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.ret, self.params, self.variadic) == (other.ret, other.params, other.variadic)

    def __hash__(self) -> int:
        return hash((self.ret, self.params, self.variadic))


class Unknown(Type):
    """A type we could not read: an unexpanded macro, a missing typedef, broken code."""

    __slots__ = ("text",)
    text: str

    __match_args__ = ("text",)

    def __init__(self, text: str = "?") -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(text={self.text!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.text,) == (other.text,)

    def __hash__(self) -> int:
        return hash((self.text,))


VOID = Scalar("void")
INT = Scalar("int")
SIZE_T = Scalar("size_t")
PTRDIFF_T = Scalar("ptrdiff_t")


def scalar(name: str) -> Scalar:
    return Scalar(name)


def vector(elem: str, n: int) -> Vector:
    return Vector(Scalar(elem), n)


_VEC = lazy(r"^(char|uchar|short|ushort|int|uint|long|ulong|half|float|double)(2|3|4|8|16)$")


def builtin_named(name: str) -> Type | None:
    """The built-in type spelled `name` (one word), or None."""
    if name in SCALAR_NAMES:
        return Scalar(name)
    m = _VEC.match(name)
    if m:
        return Vector(Scalar(m.group(1)), int(m.group(2)))
    if name.startswith(OPAQUE_PREFIXES):
        return Opaque(name)
    return None


# -- rendering ------------------------------------------------------------------------


def _render(t: Type, full: bool) -> str:
    if isinstance(t, Pointer):
        return _render_pointer(t, full, innermost=True)
    if isinstance(t, Array):
        size = "" if t.size is None else str(t.size)
        where = f"{t.space.spelling} " if t.space is not None else ""
        return f"{where}{_render(t.elem, full)} [{size}]"
    return _plain(t)


def _plain(t: Type) -> str:
    if isinstance(t, Scalar):
        return t.name
    if isinstance(t, Vector):
        return t.name
    if isinstance(t, Struct):
        return f"{'union' if t.union else 'struct'} {t.name or '<anonymous>'}"
    if isinstance(t, Enum_):
        return f"enum {t.name or '<anonymous>'}"
    if isinstance(t, Opaque):
        return f"{t.access} {t.name}" if t.access else t.name
    if isinstance(t, Pipe):
        return f"{t.access + ' ' if t.access else ''}pipe {_render(t.elem, False)}"
    if isinstance(t, Function):
        params = ", ".join(_render(p, False) for p in t.params) + (", ..." if t.variadic else "")
        return f"{_render(t.ret, False)} ({params or 'void'})"
    if isinstance(t, Unknown):
        return t.text
    if isinstance(t, Array):
        return _render(t, False)
    return "?"


def _render_pointer(p: Pointer, full: bool, innermost: bool) -> str:
    # C writes `__local int *__global *`: the innermost pointee's space leads, and each outer
    # level's pointee space follows the `*` of the level inside it.
    quals = " ".join(sorted(p.qualifiers))
    if isinstance(p.pointee, Pointer):
        inner = _render_pointer(p.pointee, full, innermost=False)
        show = p.explicit or full
        return f"{inner}{p.space.spelling + ' ' if show else ''}{quals + ' ' if quals else ''}*"
    base = _plain(p.pointee) if not isinstance(p.pointee, Array) else f"({_render(p.pointee, full)})"
    prefix = " ".join(x for x in (quals, p.space.spelling) if x)
    return f"{prefix} {base} *"


# -- address-space rules (spec 6.7) ----------------------------------------------------


def has_generic(target: Target) -> bool:
    """OpenCL C 2.0, or 3.0 with __opencl_c_generic_address_space."""
    return target.version == V2_0 or target.has(GENERIC)


def has_program_scope_globals(target: Target) -> bool:
    return target.version == V2_0 or target.has(PROGRAM_SCOPE)


def default_pointee_space(target: Target, context: str | None = None) -> AddressSpace:
    """Where an unqualified pointer points (6.7 Inference): generic where supported, else private.

    `context` (kernel-parameter, parameter, local, program-scope...) does not change the answer
    in the spec; it is accepted so callers can say where they ask from, and kernel-parameter
    pointers, which must be qualified, are still given the inferred space for the model.
    """
    return AddressSpace.GENERIC if has_generic(target) else AddressSpace.PRIVATE


def program_scope_space(target: Target) -> AddressSpace:
    """Unqualified program-scope and static/extern variables: global in 2.0+, else constant."""
    return AddressSpace.GLOBAL if has_program_scope_globals(target) else AddressSpace.CONSTANT


def is_enclosed(inner: AddressSpace, outer: AddressSpace) -> bool:
    """Whether `inner` is a subset of `outer` (6.7 Address Space Conversions, Embedded C 5.1.3).

    Every space encloses itself; generic encloses private, local and global; global encloses
    its device and host parts (clang's USM spaces); constant is disjoint from all others.
    """
    if inner is outer:
        return True
    if isinstance(inner, NumberedSpace) or isinstance(outer, NumberedSpace):
        return outer is AddressSpace.GENERIC
    if inner in _GLOBAL_PARTS:
        return outer is AddressSpace.GLOBAL or outer is AddressSpace.GENERIC
    return outer is AddressSpace.GENERIC and inner in (AddressSpace.PRIVATE, AddressSpace.LOCAL,
                                                       AddressSpace.GLOBAL)


def common_address_space(a: AddressSpace, b: AddressSpace) -> AddressSpace | None:
    """The smallest space enclosing both (for ternaries, comparisons), or None if there is none."""
    if is_enclosed(a, b):
        return b
    if is_enclosed(b, a):
        return a
    if AddressSpace.CONSTANT in (a, b) or isinstance(a, NumberedSpace) or isinstance(b, NumberedSpace):
        return None
    if a in _GLOBAL_PARTS and b in _GLOBAL_PARTS:
        return AddressSpace.GLOBAL
    return AddressSpace.GENERIC


# -- vectors ----------------------------------------------------------------------------

_XYZW = "xyzw"
_RGBA = "rgba"
_HEX = "0123456789abcdef"


def swizzle_indices(sel: str, n: int) -> list[int] | None:
    """Component indices selected by `.sel` on an n-component vector, None if invalid (6.3.7)."""
    if sel in ("lo", "hi", "even", "odd"):
        m = 4 if n == 3 else n  # 3-component vectors act as 4-component ones here
        half = m // 2
        if sel == "lo":
            return list(range(half))
        if sel == "hi":
            return list(range(half, m))
        return list(range(0 if sel == "even" else 1, m, 2))
    if len(sel) > 1 and sel[0] in "sS":
        idx = [_HEX.find(c.lower()) for c in sel[1:]]
        return idx if all(0 <= i < n for i in idx) else None
    for alphabet in (_XYZW, _RGBA):
        if all(c in alphabet for c in sel):
            idx = [alphabet.index(c) for c in sel]
            return idx if all(i < n for i in idx) else None
    return None


def swizzle_type(v: Vector, sel: str) -> Type:
    """Result type of `v.sel`: a scalar for one component, else a vector of that many (6.3.7)."""
    idx = swizzle_indices(sel, v.n)
    if idx is None:
        return Unknown(f"{v.name}.{sel}")
    if len(idx) == 1:
        return v.elem
    if len(idx) not in VECTOR_WIDTHS:
        return Unknown(f"{v.elem.name}{len(idx)}")
    return Vector(v.elem, len(idx))


# -- conversions (6.4) ---------------------------------------------------------------


def element_of(t: Type) -> Scalar | None:
    if isinstance(t, Scalar):
        return t
    if isinstance(t, Vector):
        return t.elem
    if isinstance(t, Enum_):
        return INT
    return None


def _rank(s: Scalar) -> int:
    return FLOAT_RANK.get(s.name, INTEGER_RANK.get(s.name, 3))


def usual_arithmetic(a: Type, b: Type) -> Type:
    """The common type of a binary arithmetic operation (6.4.6): vectors win over scalars."""
    if isinstance(a, Vector):
        return a
    if isinstance(b, Vector):
        return b
    ea, eb = element_of(a), element_of(b)
    if ea is None or eb is None:
        return a if ea is None else b
    ea, eb = promote(ea), promote(eb)
    if ea == eb:
        return ea
    ra, rb = _rank(ea), _rank(eb)
    if ra != rb:
        return ea if ra > rb else eb
    # same rank, mixed signedness: unsigned wins; the size_t family beats plain long/ulong
    if ea.name in UNSIGNED and eb.name not in UNSIGNED:
        return ea
    if eb.name in UNSIGNED and ea.name not in UNSIGNED:
        return eb
    return ea


def promote(s: Scalar) -> Scalar:
    """Integer promotion: ranks below int become int."""
    if s.name in INTEGER_RANK and INTEGER_RANK[s.name] < 3:
        return INT
    return s


def with_space(t: Type, space: AddressSpace) -> Type:
    """An array type whose elements live in `space` (fields of a __local struct...)."""
    if isinstance(t, Array):
        return replace(t, space=space, elem=with_space(t.elem, space))
    return t
