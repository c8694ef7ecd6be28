"""What a built-in call needs, judged by the overloads it can pick rather than by its name.

Overloads of one name may differ in what they need: `atom_add` on `long *` needs
`cl_khr_int64_base_atomics`, on `int *` nothing; `sub_group_broadcast` on `char2` needs
`cl_khr_subgroup_extended_types`; `atomic_fetch_add_explicit` without a scope argument
needs `__opencl_c_atomic_scope_device`. Two steps:

- by arity (`arity_need`), read off the call's text alone: the weakest requirement over the
  overloads taking that many arguments. Safe to memoise per statement.
- by argument types (`refine`), once per run with the semantic model: the weakest
  requirement over the overloads that accept the typed arguments. The types come from
  declarations outside the call's statement, so this step is never memoised on its text.
  An argument the model cannot type keeps the arity requirement (never report on a guess).

A requirement an overload takes from its parameter types (`double` needs fp64, `half`
cl_khr_fp16, `atomic_long` the 64-bit atomics, an unqualified pointer the generic address
space, `read_write` images, msaa and depth images) is the type's, reported where the type
is spelled; the call does not report it again (`own_requirement`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import cache

from tree_sitter import Node, Tree

from cllint.analysis.records import replace
from ..catalogue import Builtin, Overload, catalogue
from ..features import DNF, GENERIC, V1_1, V2_0, Version
from ..model import Array, Function, Opaque, Pointer, Scalar, SemanticModel, Type, Unknown, Vector
from ..model.overloads import overload_fits, parse_catalogue_type
from ..model.walk import ancestor_of_kinds, nodes_of_kinds
from ..preprocessor.view import PreprocessorView
from ..target import Target
from . import tables
from .use import Use
from cllint.analysis.lazy_re import lazy

_WORD = re.compile(r"[A-Za-z_]\w*")
_SPACES = frozenset({"__global", "__local", "__private", "__constant", "__generic"})
_QUALIFIERS = frozenset({"const", "volatile", "restrict", *_SPACES})
_HALF = re.compile(r"^half\d*$")
_VECTOR3 = lazy(r"^(?:u?char|u?short|u?int|u?long|half|float|double)3$")
_FP16_NAMES = frozenset(n for alt in tables.FP16 for n in alt)
_3D_WRITES = frozenset(n for alt in tables.IMAGE_3D_WRITES for n in alt)


def _implies(a: DNF, b: DNF) -> bool:
    """Every alternative of `a` contains some alternative of `b`."""
    return all(any(set(bb) <= set(aa) for bb in b) for aa in a)


def strip_baseline(req: DNF | None) -> DNF:
    """Drop names every target has; an alternative left empty means no requirement."""
    return _without(req, tables.BASELINE)


def _without(req: DNF | None, names: Iterable[str]) -> DNF:
    if not req:
        return ()
    drop = frozenset(names)
    out: list[tuple[str, ...]] = []
    for alt in req:
        rest = tuple(n for n in alt if n not in drop)
        if not rest:
            return ()
        if rest not in out:
            out.append(rest)
    return tuple(out)


def weakest(reqs: list[DNF]) -> DNF:
    """The requirement every one of `reqs` implies, itself one of them; () when one needs
    nothing or when none is implied by all (then nothing certain is needed)."""
    if not reqs or not all(reqs):
        return ()
    for cand in sorted(set(reqs), key=lambda r: sum(len(a) for a in r)):
        if all(_implies(r, cand) for r in reqs):
            return cand
    return ()


def _any_of(reqs: list[DNF]) -> DNF:
    """What a call needs when any one of these overloads will do: their alternatives,
    those implied by a shorter one dropped; () when one needs nothing."""
    if not reqs or not all(reqs):
        return ()
    alts = sorted({tuple(sorted(a)) for r in reqs for a in r}, key=lambda a: (len(a), a))
    out: list[tuple[str, ...]] = []
    for alt in alts:
        if not any(set(o) <= set(alt) for o in out):
            out.append(alt)
    return tuple(out)


# -- what an overload takes from its types ------------------------------------------------

def _type_borne(fn: Builtin, o: Overload) -> frozenset[str]:
    """Names that the overload's parameter and return types need on their own."""
    cat = catalogue()
    out: set[str] = set()
    for spelling in (o.returns, *(p.type for p in o.params)):
        words = _WORD.findall(spelling)
        for w in words:
            t = cat.type(w)
            if t is not None:
                out.update(n for alt in t.requires for n in alt)
            if _HALF.match(w):
                out |= _FP16_NAMES
            if w == "read_write":
                out.add("__opencl_c_read_write_images")
            if w == "pipe":
                out.add("__opencl_c_pipes")
            if w == "image3d_t" and "write" in fn.name:
                out |= _3D_WRITES
        if "*" in spelling and not _SPACES & set(words):
            out.add(GENERIC)  # an unqualified pointer: the generic address space
    return frozenset(out)


def own_requirement(fn: Builtin, o: Overload) -> DNF:
    """The overload's requirement less what its types need (reported where they are spelled)."""
    return _without(strip_baseline(fn.overload_requires(o)), _type_borne(fn, o))


def _arity(o: Overload) -> int | None:
    """How many arguments the overload takes; None when variadic."""
    if any("..." in p.type for p in o.params):
        return None
    return len(o.params)


def _of_arity(fn: Builtin, nargs: int) -> list[Overload]:
    return [o for o in fn.overloads if _arity(o) in (nargs, None)]


@cache
def arity_need(name: str, nargs: int) -> DNF | None:
    """The weakest requirement over the overloads of `name` taking `nargs` arguments, when
    stricter than over all of them (None otherwise: the name's requirement stands)."""
    fn = catalogue().function(name)
    if fn is None or tables.FUNCTIONS.get(name, (None, None))[1] is not None:
        return None
    overloads = _of_arity(fn, nargs)
    if not overloads or len(overloads) == len(fn.overloads):
        return None
    every = weakest([strip_baseline(fn.overload_requires(o)) for o in fn.overloads])
    mine = weakest([strip_baseline(fn.overload_requires(o)) for o in overloads])
    return mine if _stricter(mine, every) else None


def _stricter(a: DNF, b: DNF) -> bool:
    """`a` needs something and implies `b` (which may need nothing), and is not `b`."""
    return bool(a) and a != b and (not b or _implies(a, b))


@cache
def depends_on_types(name: str, nargs: int, need: DNF) -> bool:
    """Some overload taking `nargs` arguments needs more than `need` on its own (not through
    its types), and a vector, pointer or other non-scalar parameter can tell it apart (an
    arithmetic scalar converts to any other: `sub_group_reduce_add` on `char` picks the
    `int` overload where the `char` one is missing): the argument types decide."""
    fn = catalogue().function(name)
    if fn is None or tables.FUNCTIONS.get(name, (None, None))[1] is not None:
        return False
    return any(_stricter(own_requirement(fn, o), need) and not _all_scalar(o) for o in _of_arity(fn, nargs))


def _all_scalar(o: Overload) -> bool:
    return all(isinstance(parse_catalogue_type(p.type), Scalar) for p in o.params)


# -- version floors of single overloads ---------------------------------------------------
# Some overloads are newer than their name: the integer `clamp` and `max(gentype, sgentype)`
# are OpenCL C 1.1 (spec "Integer Functions"), sampler-less image reads 1.2 ("Built-in Image
# Read Functions"). A floor the overload takes from its types (`int3`, `image1d_t`,
# `read_write`, an unqualified pointer) is the type's, reported where the type is spelled.
# The 32-bit `atom_*` (section "OpenCL C 1.x Legacy Atomics", 1.1) are also 1.0 built-ins of
# the cl_khr_*_int32_*_atomics extensions, an alternative the catalogue does not record: on
# 1.0 their need is that extension, by the pointer's address space (`_int32_extension`).
_FLOOR_ELSEWHERE = frozenset({"atomic-legacy"})


def _version(text: str | None) -> Version | None:
    try:
        return Version.parse(text) if text else None
    except ValueError:
        return None


def _type_floor(o: Overload) -> Version | None:
    """The latest version the overload's own parameter and return types need where the type
    is the one error: a 3-component vector (1.1), `read_write` or `pipe` (2.0), an unqualified
    pointer (generic, 2.0). Not the image types: clang-19 accepts `image1d_t` on 1.1 and
    rejects the 1.2 built-ins taking it, one error per call."""
    floors: list[Version] = []
    for spelling in (o.returns, *(p.type for p in o.params)):
        words = _WORD.findall(spelling)
        if any(_VECTOR3.match(w) for w in words):
            floors.append(V1_1)
        if "read_write" in words or "pipe" in words:
            floors.append(V2_0)
        if "*" in spelling and not _SPACES & set(words):
            floors.append(V2_0)  # an unqualified pointer: the generic address space
    return max(floors) if floors else None


def own_floor(fn: Builtin, o: Overload) -> Version | None:
    """The overload's own version floor when later than its name's and not its types'."""
    mine, name = _version(fn.overload_since(o)), _version(fn.since)
    if mine is None or name is None or mine <= name or fn.spec in _FLOOR_ELSEWHERE:
        return None
    borne = _type_floor(o)
    return None if borne is not None and borne >= mine else mine


@cache
def floor_above_name(name: str, nargs: int) -> Version | None:
    """The latest own floor over the overloads of `name` taking `nargs` arguments (None when
    none is later than the name's `since`): a target older than that needs the argument types."""
    fn = catalogue().function(name)
    if fn is None or name in tables.FUNCTIONS:
        return None
    floors = [v for o in _of_arity(fn, nargs) if (v := own_floor(fn, o)) is not None]
    return max(floors) if floors else None


def _exact(arg: Node, a: Type, p: Type) -> bool:
    """`a` is the parameter's type itself, up to the address space and qualifiers of a
    pointee; an integer literal is any integer scalar (`clamp(i, 0, 255)`). No conversion
    is guessed at: a call whose arguments need one has no certain overload here."""
    if isinstance(a, Array):
        a = a.decay()
    if isinstance(p, Unknown):
        return p.text == "gentype"
    if isinstance(p, Pointer):
        return isinstance(a, Pointer) and _same_pointee(a.pointee, p.pointee)
    if isinstance(p, Opaque):
        return isinstance(a, Opaque) and a.name == p.name and (a.access or "read_only") == (p.access or "read_only")
    if isinstance(p, Scalar) and p.is_integer and isinstance(a, Scalar) and a.is_integer and _integer_literal(arg):
        return True
    return isinstance(p, (Scalar, Vector)) and a == p


def _same_pointee(a: Type, p: Type) -> bool:
    if isinstance(p, Unknown):
        return p.text == "gentype"
    if isinstance(a, Pointer) and isinstance(p, Pointer):
        return _same_pointee(a.pointee, p.pointee)
    if isinstance(a, Opaque) and isinstance(p, Opaque):
        return a.name == p.name
    return a == p


def _integer_literal(arg: Node) -> bool:
    while arg.type in ("parenthesized_expression", "unary_expression") and arg.named_children:
        if arg.type == "unary_expression" and arg.child_by_field_name("operator") is not None \
                and arg.child_by_field_name("operator").type not in ("-", "+"):
            return False
        arg = arg.named_children[-1]
    return arg.type == "number_literal"


def _signature(fn: Builtin, o: Overload) -> str:
    return f"{o.returns} {fn.name}({', '.join(p.type for p in o.params)})"


def _floor_refined(use: Use, fn: Builtin, args: list[Node], types: list[Type]) -> Use:
    """`use` with `since` the earliest floor over the overloads its arguments match exactly,
    when later than the name's; unchanged when none matches (never report on a guess)."""
    exact = [o for o in _of_arity(fn, len(args))
             if len(o.params) == len(args)
             and all(_exact(n, t, parse_catalogue_type(q.type)) for n, t, q in zip(args, types, o.params))]
    if not exact:
        return use
    floors = [(own_floor(fn, o) or _version(fn.since), o) for o in exact]
    floor, first = min(floors, key=lambda f: f[0] or Version.parse("1.0"))
    if floor is None or use.since is None or floor <= use.since:
        return use
    return replace(use, since=floor, overload=_signature(fn, first))


# -- per run: the typed arguments ---------------------------------------------------------

def refine(uses: list[Use], model: Callable[[], SemanticModel], tree: Tree, target: Target,
           view: PreprocessorView | None = None) -> list[Use]:
    """`uses` with each call marked `by_types` judged by the overloads its typed arguments
    can pick. `model` builds the semantic model on first need (most files have no such call);
    `view` tells declarations the call always sees from those of other `#if` arms."""
    if not any(_typed(u, target) for u in uses):
        return uses
    built = model()
    return [_safely_refined(u, built, tree, target, view) if _typed(u, target) else u for u in uses]


def _typed(use: Use, target: Target) -> bool:
    """The call's argument types may change what it needs on this target."""
    return (use.by_types or (use.floor is not None and target.version < use.floor)
            or (target.version < V1_1 and use.name in tables.INT32_ATOMICS))


def _safely_refined(use: Use, model: SemanticModel, tree: Tree, target: Target,
                    view: PreprocessorView | None) -> Use:
    try:
        return _refined(use, model, tree, target, view)
    except (AttributeError, ValueError, IndexError, RecursionError):  # odd trees: keep the name's need
        return use


def _refined(use: Use, model: SemanticModel, tree: Tree, target: Target, view: PreprocessorView | None) -> Use:
    call = _call_at(tree, use.start, use.end)
    fn = catalogue().function(use.name)
    if call is None or fn is None:
        return use
    args = _arguments(call)
    types = [model.type_of(a) for a in args]
    if not all(_known(t) for t in types):
        return use  # an argument the model cannot type: keep the name's requirement
    if view is not None and not _Declarations(model, view, call.start_byte).certain(args):
        return use  # `#ifdef cl_khr_int64_base_atomics` / `typedef long T;` / `#else` / `typedef int T;`
    if use.floor is not None and target.version < use.floor:
        use = _floor_refined(use, fn, args, types)
    if not use.by_types:
        return use
    fits = [o for o in _of_arity(fn, len(args)) if overload_fits(o, types, target)]
    owns = [own_requirement(fn, o) for o in fits]
    int32 = [_int32_extension(fn, o) if target.version < V1_1 else None for o in fits]
    owns = [((ext,),) if ext else own for ext, own in zip(int32, owns)]
    need = _any_of(owns)
    if not _stricter(need, use.requires):
        return use
    # Overloads an extension adds have that extension's status: the 64-bit `atom_add` of
    # cl_khr_int64_base_atomics is not deprecated with the 1.x legacy atomics (its spec
    # section, "Legacy 64-Bit Atomic Extensions", says nothing of the kind).
    deprecated = None if owns and all(owns) else use.deprecated
    detail = f" on '{_pointer_text(types[0])}'" if any(int32) else _needing_types(fn, fits, use.requires, len(args))
    return replace(use, requires=need, detail=detail, deprecated=deprecated)


def _int32_extension(fn: Builtin, o: Overload) -> str | None:
    """The extension a 32-bit `atom_*` overload comes from on OpenCL C 1.0: the base or
    extended group's, for the space its pointer points into (spec "Atomic Function
    Extensions"); None for any other overload (the 64-bit ones need cl_khr_int64_*)."""
    if fn.name not in tables.INT32_ATOMICS or not o.params:
        return None
    words = set(_WORD.findall(o.params[0].type))
    if not words & {"int", "uint"}:
        return None
    space = "global" if "__global" in words else "local" if "__local" in words else ""
    return tables.int32_atomics_extension(fn.name, space)


def _pointer_text(t: Type) -> str:
    """`volatile __local uint *` as the message quotes it: the space and the pointee."""
    if isinstance(t, Array):
        t = t.decay()
    if isinstance(t, Pointer):
        return f"{t.space.spelling} {t.pointee.render()} *"
    return t.render()


class _Declarations:
    """Whether the declarations that type a call's arguments (variables, parameters, the
    typedefs and tags their declarations name) are the ones the compiler sees with the call:
    each in an `#if` arm that encloses the call, or one the target is known to compile. One
    in another arm may be an alternative of another (the model keeps one of them): a guess."""

    _NAMES = frozenset({"identifier", "type_identifier"})
    _TYPE_NAMES = frozenset({"type_identifier"})

    def __init__(self, model: SemanticModel, view: PreprocessorView, offset: int) -> None:
        self.model, self.view = model, view
        self.around = view.branch_at(offset).ancestor_ids

    def certain(self, args: list[Node]) -> bool:
        return all(self._name_certain(n) for a in args for n in nodes_of_kinds(a, self._NAMES, ordered=False))

    def _name_certain(self, name: Node) -> bool:
        sym = self.model.resolve(name)
        if sym is None or sym.node is None:
            return True  # a built-in, a macro: nothing of the file's
        head = _declaration_of(sym.decl or sym.node)
        return self._seen(head) and all(self._type_certain(t) for t in self._type_names(head))

    def _type_certain(self, name: Node, depth: int = 0) -> bool:
        word = name.text.decode("utf-8", "replace") if name.text else ""
        sym = self.model.typedefs.get(word) or self.model.tags.get(word)
        if sym is None or sym.node is None:
            return True
        head = _declaration_of(sym.decl or sym.node)
        if not self._seen(head):
            return False
        # typedef chains: `typedef cnt_t count_t;` (a few levels; deeper ones are rare)
        return depth > 2 or all(self._type_certain(t, depth + 1) for t in self._type_names(head)
                                if t.start_byte != sym.node.start_byte)

    def _type_names(self, head: Node) -> list[Node]:
        """The type names a declaration uses; of a function definition, those of its head."""
        if head.type != "function_definition":
            return nodes_of_kinds(head, self._TYPE_NAMES, ordered=False)
        parts = (head.child_by_field_name("type"), head.child_by_field_name("declarator"))
        return [t for p in parts if p is not None for t in nodes_of_kinds(p, self._TYPE_NAMES, ordered=False)]

    def _seen(self, node: Node) -> bool:
        branch = self.view.branch_at(node.start_byte)
        return id(branch) in self.around or branch.active is True


_DECLARATIONS = frozenset({"declaration", "parameter_declaration", "type_definition", "struct_specifier",
                           "union_specifier", "enum_specifier", "field_declaration", "function_definition"})


def _declaration_of(node: Node) -> Node:
    """The declaration around a declarator's name (a few parents up, at most)."""
    return ancestor_of_kinds(node, _DECLARATIONS, 8) or node


def _call_at(tree: Tree, start: int, end: int) -> Node | None:
    node = tree.root_node.named_descendant_for_byte_range(start, end)
    if node is None or node.type != "identifier" or node.start_byte != start or node.end_byte != end:
        return None
    call = node.parent
    if call is None or call.type != "call_expression" or call.child_by_field_name("function") != node:
        return None
    return call


def _arguments(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return [] if args is None else [a for a in args.named_children if a.type != "comment"]


def _known(t: Type) -> bool:
    """The model read the whole type: no part of it is a guess."""
    while isinstance(t, (Pointer, Array)):
        t = t.pointee if isinstance(t, Pointer) else t.elem
    return not isinstance(t, (Unknown, Function))


def _base(spelling: str) -> str:
    """`volatile __global long *` -> `long`."""
    return " ".join(w for w in _WORD.findall(spelling) if w not in _QUALIFIERS)


def _needing_types(fn: Builtin, fits: list[Overload], need: DNF, nargs: int) -> str:
    """" on 'long'": the parameter types of the fitting overloads that no overload needing
    only `need` takes at the same place."""
    plain = [o for o in _of_arity(fn, nargs) if not _stricter(own_requirement(fn, o), need)]
    names: list[str] = []
    for o in fits:
        for i, p in enumerate(o.params):
            base = _base(p.type)
            if base not in names and all(_base(q.params[i].type) != base for q in plain if i < len(q.params)):
                names.append(base)
    return " on " + ", ".join(f"'{n}'" for n in names) if names else ""
