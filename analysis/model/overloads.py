"""Built-in function overload resolution against the catalogue, good enough for return types
and address spaces (not a full implementation of C's conversion ranking).

The catalogue spells types as normalised strings (`volatile __global atomic_int *`); an
unqualified pointer there is the generic-address-space overload (2.0 / 3.0 with the feature).
`gentype` in a return type is bound from the matching argument (`to_global`).
"""

from __future__ import annotations

import re
from functools import lru_cache

from cllint.analysis.lazy_re import lazy
from cllint.analysis.catalogue import Builtin, Overload, catalogue
from cllint.analysis.target import Target

from .types import (
    AddressSpace,
    Array,
    Enum_,
    Opaque,
    Pipe,
    Pointer,
    Scalar,
    Struct,
    Type,
    Unknown,
    Vector,
    builtin_named,
    has_generic,
)

_REJECT = None
_WORD = re.compile(r"[A-Za-z_]\w*")
_CONVERT = lazy(r"^convert_([a-z]+(?:2|3|4|8|16)?)(?:_sat)?(?:_rt[enpz])?$")
_AS = lazy(r"^as_([a-z]+(?:2|3|4|8|16)?)$")


class Resolution:
    __slots__ = ("builtin", "overload", "returns")
    builtin: Builtin
    overload: Overload | None  # None when nothing matched and a common return type was used
    returns: Type

    __match_args__ = ("builtin", "overload", "returns")

    def __init__(self, builtin: Builtin, overload: Overload | None, returns: Type) -> None:
        self.builtin = builtin
        self.overload = overload
        self.returns = returns

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"builtin={self.builtin!r}, " f"overload={self.overload!r}, "
                f"returns={self.returns!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.builtin, self.overload, self.returns) == (other.builtin, other.overload, other.returns)

    def __hash__(self) -> int:
        return hash((self.builtin, self.overload, self.returns))


@lru_cache(maxsize=8192)
def parse_catalogue_type(spelling: str) -> Type:
    """A catalogue type string as a Type: `const __global float *` -> Pointer(float, GLOBAL)."""
    if "(" in spelling or "..." in spelling:
        return Unknown(spelling)  # block types and variadics
    stars = spelling.count("*")
    words = _WORD.findall(spelling)
    space: AddressSpace | None = None
    quals: set[str] = set()
    access: str | None = None
    pipe = False
    base: Type | None = None
    for w in words:
        s = AddressSpace.from_keyword(w)
        if s is not None:
            space = s
        elif w in ("const", "volatile"):
            quals.add(w)
        elif w in ("read_only", "write_only", "read_write"):
            access = w
        elif w == "pipe":
            pipe = True
        elif w == "restrict":
            continue
        elif base is None:
            base = builtin_named(w) or Unknown(w)
    if base is None:
        return Unknown(spelling)
    if access and isinstance(base, Opaque):
        base = Opaque(base.name, access)
    if pipe:
        base = Pipe(base, access)
    for i in range(stars):
        base = Pointer(base, space or AddressSpace.GENERIC, space is not None,
                       frozenset(quals) if i == 0 else frozenset())
        space, quals = None, set()
    return base


def _same_base(a: Type, p: Type) -> bool:
    if isinstance(p, Unknown) and p.text == "gentype":
        return True
    if isinstance(a, Opaque) and isinstance(p, Opaque):
        return a.name == p.name
    if isinstance(a, Pointer) and isinstance(p, Pointer):
        return _same_base(a.pointee, p.pointee)
    return a == p


def _arg_cost(a: Type, p: Type, target: Target) -> float | None:
    """How well an argument of type `a` fits parameter `p`: 0 exact, larger worse, None never."""
    if isinstance(p, Unknown):
        return 0 if p.text == "gentype" else 1
    if isinstance(a, Unknown):
        return 2  # unknown arguments fit anything, weakly
    if isinstance(a, Array):
        a = a.decay()
    if isinstance(p, Pointer):
        if not isinstance(a, Pointer):
            return 8 if isinstance(a, Scalar) and a.is_integer else _REJECT  # a literal 0
        if not _same_base(a.pointee, p.pointee):
            return 6 if isinstance(a.pointee, Scalar) and a.pointee.is_void else _REJECT
        if a.space is p.space:
            return 0
        if p.space is AddressSpace.GENERIC and not p.explicit and a.space is not AddressSpace.CONSTANT:
            return 1 if has_generic(target) else 4
        if a.space is AddressSpace.GENERIC and not a.explicit and p.space is AddressSpace.PRIVATE:
            return 2  # an unqualified pointer on a target without generic points to private
        return _REJECT
    if isinstance(p, Vector):
        if isinstance(a, Vector) and a.n == p.n:
            return 0 if a.elem == p.elem else 5
        return _REJECT
    if isinstance(p, Scalar):
        if isinstance(a, Vector):
            return _REJECT
        if isinstance(a, Enum_):
            return 1
        if not isinstance(a, Scalar):
            return 3 if isinstance(a, Opaque) and p.is_integer else _REJECT
        if a == p:
            return 0
        if a.is_integer and p.is_integer:
            return 1
        if a.is_float and p.is_float:
            return 2
        return 3
    if isinstance(p, Opaque):
        if isinstance(a, Opaque):
            if a.name != p.name:
                return _REJECT
            return 0 if (a.access or "read_only") == (p.access or "read_only") or p.access is None else 1
        if isinstance(a, (Scalar, Enum_)) and not p.name.startswith(("image", "event", "queue", "atomic",
                                                                        "clk_event", "reserve", "ndrange")):
            return 1  # memory_order, cl_mem_fence_flags... take integers
        return _REJECT if not isinstance(a, (Scalar, Enum_)) else 4
    if isinstance(p, Pipe):
        return 0 if isinstance(a, Pipe) else _REJECT
    if isinstance(p, Struct):
        return 0 if a == p else _REJECT
    return 1


def overload_fits(o: Overload, args: list[Type], target: Target) -> bool:
    """A call with arguments of these types may pick `o`. Lenient (any conversion clang may
    allow counts, a scalar widens to a vector), except between vectors of other element types:
    OpenCL C never converts those implicitly (6.4.1)."""
    params = [parse_catalogue_type(p.type) for p in o.params if "..." not in p.type]
    if len(args) < len(params):
        return False
    for a, p in zip(args, params):
        if isinstance(p, Vector) and isinstance(a, Vector):
            if a != p:
                return False
        elif isinstance(p, Vector) and isinstance(a, (Scalar, Enum_)):
            continue
        elif _arg_cost(a, p, target) is None:
            return False
    return True


def _bind_gentype(ret: Type, params: list[Type], args: list[Type]) -> Type:
    """Replace `gentype` in the return type by the type bound from the arguments."""
    bound: Type | None = None
    for p, a in zip(params, args):
        pp, aa = p, a
        while isinstance(pp, Pointer) and isinstance(aa, Pointer):
            pp, aa = pp.pointee, aa.pointee
        if isinstance(pp, Unknown) and pp.text == "gentype":
            bound = aa
            break
    if bound is None:
        return ret

    def sub(t: Type) -> Type:
        if isinstance(t, Unknown) and t.text == "gentype":
            return bound  # type: ignore[return-value]
        if isinstance(t, Pointer):
            return Pointer(sub(t.pointee), t.space, t.explicit, t.qualifiers)
        return t

    return sub(ret)


def resolve_builtin(name: str, args: list[Type], target: Target) -> Resolution | None:
    """Pick the catalogue overload of `name` that fits `args` best; None if `name` is no built-in."""
    # Kernels call the same few built-ins with the same argument types over and over, and
    # scoring every overload (up to hundreds per name) was the model's costliest step.
    try:
        return _resolve_memo(name, tuple(args), target)
    except TypeError:  # an argument type that cannot be hashed: resolve it afresh
        return _resolve(name, args, target)


def fitting_returns(name: str, args: list[Type], target: Target) -> frozenset[str]:
    """The return types (catalogue spellings) of every overload of `name` a call with these
    argument types may pick."""
    try:
        return _fitting_memo(name, tuple(args), target)
    except TypeError:
        return _fitting(name, args, target)


def _fitting(name: str, args: list[Type] | tuple[Type, ...], target: Target) -> frozenset[str]:
    b = catalogue().function(name)
    if b is None:
        return frozenset()
    return frozenset(o.returns for o in b.overloads if overload_fits(o, list(args), target))


def _resolve(name: str, args: list[Type] | tuple[Type, ...], target: Target) -> Resolution | None:
    args = list(args)
    b = catalogue().function(name)
    if b is None:
        return _conversion(name)
    best: tuple[float, Overload] | None = None
    for o in b.overloads:
        params = [parse_catalogue_type(p.type) for p in o.params]
        variadic = any(p.type.strip() == "..." or p.type.endswith("...") for p in o.params)
        fixed = [p for p, raw in zip(params, o.params) if "..." not in raw.type]
        if len(args) < len(fixed) or (len(args) > len(fixed) and not variadic):
            continue
        total = 0.0
        for a, p in zip(args, fixed):
            c = _arg_cost(a, p, target)
            if c is None:
                break
            total += c
        else:
            if not target.satisfies(b.overload_since(o), b.overload_requires(o)):
                total += 0.5  # a tie-break toward what the target has; argument fit comes first
            if best is None or total < best[0]:
                best = (total, o)
    if best is not None:
        o = best[1]
        params = [parse_catalogue_type(p.type) for p in o.params]
        ret = _bind_gentype(parse_catalogue_type(o.returns), params, args)
        return Resolution(b, o, ret)
    returns = {o.returns for o in b.overloads}
    ret = parse_catalogue_type(returns.pop()) if len(returns) == 1 else Unknown(f"{name}(...)")
    return Resolution(b, None, ret)


_resolve_memo = lru_cache(maxsize=16384)(_resolve)
_fitting_memo = lru_cache(maxsize=16384)(_fitting)


def _conversion(name: str) -> Resolution | None:
    """`convert_T[_sat][_rtX]` and `as_T` spellings the catalogue may not list one by one."""
    m = _CONVERT.match(name) or _AS.match(name)
    t = builtin_named(m.group(1)) if m else None
    if t is None:
        return None
    b = Builtin(name, "conversion", "", "1.0", (), None, None, "explicit-conversions", ())
    return Resolution(b, None, t)
