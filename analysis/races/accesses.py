"""Each subscript of __local or __global memory in a kernel, with what decides whether
a work-item makes it: the `if`, `?:`, `&&`/`||` and loop conditions around it and the
early exits (`if (c) return;`) before it.

An access is to an element: `t[i]`, `*p` (`p[0]`), `p->f`, a `__local` scalar, the location
an atomic built-in is given (`atomic_inc(p)` is an atomic access to `p[0]`), and a field
or vector component of one (`G[3].y` is element 3, its part `y`; two parts of one element
that do not overlap, `.x` and `.y`, are no conflict: `parts_overlap`). A pointer chosen by
`?:` (`c ? a : b`) or an if/else is an access to each, under the condition that picks it. An
async work-group copy is two accesses, a write of its destination's elements and a read of
its source's (`_copy_sides`); a pointer cast to another type views the same bytes (`view`)."""

from __future__ import annotations

from collections.abc import Callable
import re
from typing import Any

from tree_sitter import Node

from cllint.analysis.annotations import without_annotations
from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.races.frames import Offset, Target, declared_dims, widened
from cllint.analysis.races.labels import goto_target, local_labels, skipped_until
from cllint.analysis.syntax import descend, walk
from cllint.analysis.uniformity.names import Names, VarInfo
from cllint.analysis.lazy_re import lazy

ATOMIC_PREFIXES = ("atomic_", "atom_")
JUMPS = {"return_statement", "break_statement", "continue_statement"}


class Guard:
    __slots__ = ("cond", "holds", "ev", "cases")
    cond: Node
    holds: bool  # the access happens where `cond` is true (False: where it is false)
    ev: Any  # a helper's FrameEvaluator when `cond` is in a helper (None: the kernel's)
    cases: tuple[Node, ...]  # a `switch`'s: `cond` (its value) is one of these ('default': none)

    __match_args__ = ("cond", "holds", "ev", "cases")

    def __init__(self, cond: Node, holds: bool, ev: Any = None, cases: tuple[Node, ...] = ()) -> None:
        self.cond = cond
        self.holds = holds
        self.ev = ev
        self.cases = cases

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(cond={self.cond!r}, holds={self.holds!r}, ev={self.ev!r}, "
                f"cases={self.cases!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.cond, self.holds, self.ev, self.cases) == (other.cond, other.holds, other.ev, other.cases)

    def __hash__(self) -> int:
        return hash((self.cond, self.holds, self.ev, self.cases))

    def within(self, ev: Any) -> Guard:
        """This guard, read in a helper's frame."""
        return Guard(self.cond, self.holds, ev, self.cases)


class Access:
    node: Node  # the outermost subscript_expression
    base: VarInfo
    space: str  # 'local' or 'global'
    indices: tuple[Node, ...]  # `t[y][x]` -> (y, x); an element is the tuple of their values
    read: bool
    write: bool
    atomic: bool
    cfg_node: int
    guards: tuple[Guard, ...]
    unknown_guard: bool  # under a `switch` or something else not modelled
    ev: Any  # evaluates `indices`: a helper's FrameEvaluator (None: the kernel's)
    offset: tuple[Offset, ...]  # added to the first index: the pointer's distance from `base`
    site: Node | None  # in a helper: the kernel's call it is made through
    helper: str  # in a helper: the function whose body holds `node`
    roots: tuple[Node, ...]  # kernel syntax its values also depend on (the call)
    part: tuple  # a field or component of the element (`parts_overlap`); () the whole
    view: int  # through a cast pointer: the size in bytes of the type it views (`copies`); 0 none
    copy: tuple  # an async work-group copy's side: (built-in, count, stride or None); () none
    inner: tuple[int, ...]  # through rows (`t[y][x]`, `t` a `float (*)[8]` view): frames.Target.inner

    __match_args__ = ("node", "base", "space", "indices", "read", "write", "atomic", "cfg_node", "guards",
                      "unknown_guard", "ev", "offset", "site", "helper", "roots", "part", "view", "copy", "inner")

    def __init__(
        self,
        node: Node,
        base: VarInfo,
        space: str,
        indices: tuple[Node, ...],
        read: bool,
        write: bool,
        atomic: bool,
        cfg_node: int,
        guards: tuple[Guard, ...],
        unknown_guard: bool = False,
        ev: Any = None,
        offset: tuple[Offset, ...] = (),
        site: Node | None = None,
        helper: str = "",
        roots: tuple[Node, ...] = (),
        part: tuple = (),
        view: int = 0,
        copy: tuple = (),
        inner: tuple[int, ...] = (),
    ) -> None:
        self.node = node
        self.base = base
        self.space = space
        self.indices = indices
        self.read = read
        self.write = write
        self.atomic = atomic
        self.cfg_node = cfg_node
        self.guards = guards
        self.unknown_guard = unknown_guard
        self.ev = ev
        self.offset = offset
        self.site = site
        self.helper = helper
        self.roots = roots
        self.part = part
        self.view = view
        self.copy = copy
        self.inner = inner

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"node={self.node!r}, " f"base={self.base!r}, "
                f"space={self.space!r}, " f"indices={self.indices!r}, " f"read={self.read!r}, "
                f"write={self.write!r}, " f"atomic={self.atomic!r}, " f"cfg_node={self.cfg_node!r}, "
                f"guards={self.guards!r}, " f"unknown_guard={self.unknown_guard!r}, " f"ev={self.ev!r}, "
                f"offset={self.offset!r}, " f"site={self.site!r}, " f"helper={self.helper!r}, "
                f"roots={self.roots!r}, " f"part={self.part!r}, " f"view={self.view!r}, "
                f"copy={self.copy!r}, inner={self.inner!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.node, self.base, self.space, self.indices, self.read, self.write, self.atomic,
                self.cfg_node, self.guards, self.unknown_guard, self.ev, self.offset, self.site, self.helper,
                self.roots, self.part, self.view, self.copy, self.inner)
        theirs = (other.node, other.base, other.space, other.indices, other.read, other.write, other.atomic,
                  other.cfg_node, other.guards, other.unknown_guard, other.ev, other.offset, other.site,
                  other.helper, other.roots, other.part, other.view, other.copy, other.inner)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    @property
    def anchor(self) -> Node:
        """Where the access shows in the kernel: itself, or the call it is made through."""
        return self.site or self.node

    @property
    def ident(self) -> tuple[int, int]:
        return self.node.id, self.site.id if self.site is not None else -1


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def space_of(v: VarInfo) -> str | None:
    """'local' or 'global' for a __local array or a pointer to shared memory."""
    if v.spelt is not None:  # through a macro or a typedef (`GLOBAL int *p`, `gptr p`)
        return v.spelt if v.spelt in ("local", "global") else None
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    if decl is None:
        return None
    for n in decl.children:
        for q in walk(n) if n.type in ("type_qualifier", "address_space_qualifier") else ():
            if q.type == "address_space_qualifier":
                word = _text(q).lstrip("_")
                return word if word in ("local", "global") else None
    # a program-scope variable declared with no address space is in `__global` (OpenCL C 2.0,
    # 6.7 address space inference)
    return "global" if v.shared and decl.parent is not None and decl.parent.type == "translation_unit" else None


_SWIZZLE = {c: i for i, c in enumerate("xyzw")} | {c: i for i, c in enumerate("rgba")}
_NUMBERED = lazy(r"^[sS]([0-9a-fA-F]+)$")
ATOMIC_READS = ("atomic_load", "atomic_load_explicit")
ATOMIC_WRITES = ("atomic_store", "atomic_store_explicit")
NOT_ACCESSES = ("atomic_init", "atomic_work_item_fence")
ASYNC_COPIES = ("async_work_group_copy", "async_work_group_strided_copy")
VECTOR_MEMORY = re.compile(r"^v(load|store)(2|3|4|8|16)$")  # `vload_half` and `vstorea_half` are not followed


_HALVES = {"lo": ("lo",), "hi": ("hi",), "even": ("even",), "odd": ("odd",)}
_APART = frozenset({frozenset({("lo",), ("hi",)}), frozenset({("even",), ("odd",)})})


def component(name: str) -> str | frozenset[int] | tuple[str] | None:
    """A field's name, or the vector components a swizzle selects (`.xy`, `.s01`); a 1-tuple
    for `.lo`, `.hi`, `.even`, `.odd` (which components depends on the width)."""
    if name in _HALVES:
        return _HALVES[name]
    if name and all(c in "xyzw" for c in name) or name and all(c in "rgba" for c in name):
        return frozenset(_SWIZZLE[c] for c in name)
    m = _NUMBERED.match(name)
    return frozenset(int(c, 16) for c in m.group(1)) if m else name


def sized_halves(part: tuple, width: int | None) -> tuple:
    """`part` with a leading `.lo`, `.hi`, `.even` or `.odd` made the components it selects of
    a `width`-wide vector element (`.hi` of a float4: z and w, apart from `.y`); as it is where
    the width is not known."""
    if not part or width is None or not isinstance(part[0], tuple):
        return part
    half = part[0][0]
    comps = range(width // 2) if half == "lo" else range(width // 2, width) if half == "hi" \
        else range(0, width, 2) if half == "even" else range(1, width, 2)
    return (frozenset(comps), *part[1:])


def parts_overlap(p: tuple, q: tuple) -> bool:
    """Whether two parts of one element share bytes: a whole element meets each of its
    parts; `.x` and `.y`, `.lo` and `.hi`, fields `a` and `b`, or `.v[0]` and `.v[1]` of an
    array field, do not meet; `.lo` and
    `.x` may (the width is not known here). A field name that is no swizzle (`count`) says
    the element is a struct: any other name of it, a swizzle's letters included (`.w`,
    `.hi`), is another field."""
    for a, b in zip(p, q):
        if a is None or b is None:
            return True
        if isinstance(a, str) or isinstance(b, str):
            if a != b:  # (one name spelled two ways never is: a str is never a swizzle's)
                return False
        elif isinstance(a, frozenset) and isinstance(b, frozenset):
            if not a & b:
                return False
        elif isinstance(a, tuple) and isinstance(b, tuple):
            if frozenset({a, b}) in _APART:
                return False
        elif isinstance(a, int) and isinstance(b, int):  # two elements of an array field
            if a != b:
                return False
        else:
            return True
    return True


def _parts(n: Node) -> tuple[Node, tuple]:
    """`t[i].a.x`, `t[i].v[2]`: the outermost field expression (or subscript of an array
    field by a literal) over `n`, and the parts it selects, an array field's element by its
    index."""
    part: list = []
    p = n.parent
    while p is not None:
        if p.type == "field_expression" and p.child_by_field_name("argument") == n \
                and _text(p.child_by_field_name("operator")) == ".":
            part.append(component(_text(p.child_by_field_name("field"))))
        elif p.type == "subscript_expression" and p.child_by_field_name("argument") == n and part:
            index = p.child_by_field_name("index")
            text = _text(index).rstrip("uUlL") if index is not None and index.type == "number_literal" else ""
            if not text.isdigit():
                break  # `.v[j]`: an element not followed (the access is left out, `_use`)
            part.append(int(text))
        else:
            break
        n, p = p, p.parent
    return n, tuple(part)


def collect(names: Names, syntax: Node, cfg_node: int, body: Node,
            target_of: Callable[[Node], Target | None], exits: BlockExits | None = None,
            targets_of: Callable[[Node], list[tuple[Target, tuple]]] | None = None,
            scalar_of: Callable[[Node], Target | None] | None = None,
            macro_subscript: Callable[[Node], tuple[Node, tuple[Node, ...], Any, tuple[Node, ...]] | None]
            | None = None
            ) -> list[Access]:
    """Accesses to shared memory in one CFG node's syntax (a statement or condition):
    `t[i]`, `t[y][x]`, `*p`, `p->f`, a `__local` scalar, an atomic's location, and their
    fields; `target_of` says what the pointer expression subscripted or dereferenced there
    points into (None: not followed); `targets_of` each target a `?:` may pick, with the
    conditions that pick it; `scalar_of` the `__local` scalar an identifier names;
    `macro_subscript` the subscript a macro use expands to (races/accessor_macros.py)."""
    many = targets_of or (lambda e: [(t, ())] if (t := target_of(e)) is not None else [])
    out: list[Access] = []
    for n in walk(syntax):
        choices: list[tuple[Target, tuple]]
        part: tuple = ()
        index_ev: Any = None  # the indices' evaluator where they are not the kernel's (a macro's)
        roots: tuple[Node, ...] = ()  # then the kernel syntax they are made of
        kind = n.type
        if kind == "pointer_expression":
            if _text(n.child_by_field_name("operator")) != "*":
                continue
            choices = [(t, w) for t, w in many(n.child_by_field_name("argument"))
                       if not (t.base.array and declared_dims(t.base) != 1)]  # `*t` of a 2-D array: a row
            indices: tuple[Node, ...] = ()  # the element at the pointer's offset
        elif kind == "field_expression":
            if _text(n.child_by_field_name("operator")) != "->":
                continue
            choices = [(t, w) for t, w in many(n.child_by_field_name("argument"))
                       if not (t.base.array and declared_dims(t.base) != 1)]  # (`&s[i]` of a struct array: s[i])
            indices, part = (), (component(_text(n.child_by_field_name("field"))),)
        elif kind == "identifier":
            t = scalar_of(n) if scalar_of is not None else None
            if t is None or n.parent is None or n.parent.type in ("init_declarator", "declaration", "array_declarator",
                                                                  "pointer_declarator", "parameter_declaration"):
                continue
            choices, indices = [(t, ())], ()
        elif kind == "call_expression":
            fn = _text(n.child_by_field_name("function"))
            args = n.child_by_field_name("arguments")
            first = next((a for a in (args.named_children if args else []) if a.type != "comment"), None)
            if fn in ASYNC_COPIES:
                out.extend(_copy_sides(n, fn, many, cfg_node, body, exits))
                continue
            vector = VECTOR_MEMORY.match(fn)
            if vector is not None:
                out.extend(_vector_access(n, vector.group(1) == "store", int(vector.group(2)), many, cfg_node,
                                          body, exits))
                continue
            macro = macro_subscript(n) if macro_subscript is not None and not fn.startswith(ATOMIC_PREFIXES) \
                else None
            if macro is not None:  # `AT(l, y, x)`: the element it expands to
                pointer, indices, index_ev, roots = macro
                choices = _subscripted(many(pointer), len(indices))
            elif not fn.startswith(ATOMIC_PREFIXES) or fn in NOT_ACCESSES or first is None:
                continue
            else:
                while first.type == "parenthesized_expression" and first.named_child_count == 1:
                    first = first.named_children[0]
                if first.type == "pointer_expression" and _text(first.child_by_field_name("operator")) == "&":
                    continue  # `&t[i]`, `&x`: the subscript or scalar is the access (`_use`)
                _atomic_accesses(out, n, fn, many(first), cfg_node, body, exits)
                continue
        elif kind != "subscript_expression" or n.parent is not None and n.parent.type == "subscript_expression" \
                and n.parent.child_by_field_name("argument") == n:
            continue  # only the outermost of `t[y][x]`
        else:
            chain: list[Node | None] = []
            root: Node | None = n
            while root is not None and root.type == "subscript_expression" and not _held_pointer(names, root):
                chain.append(root.child_by_field_name("index"))
                root = root.child_by_field_name("argument")
                while root is not None and root.type == "parenthesized_expression" and root.named_child_count == 1:
                    root = root.named_children[0]
            if root is None or root.type not in ("identifier", "cast_expression", "call_expression",
                                                 "subscript_expression", "field_expression") \
                    or any(i is None for i in chain):
                continue  # (a cast at the use views the same bytes: `((global uchar *)a)[i]`)
            # A __local array, a kernel's pointer argument that is never moved, or a pointer
            # derived from one: other private pointers may point anywhere per work-item.
            indices = tuple(i for i in reversed(chain) if i is not None)
            choices = _subscripted(many(root), len(indices))
        if not choices:
            continue
        outer, more = _parts(n)
        read, write, atomic = _use(outer)
        if atomic is None:
            continue  # its address escapes: what is done with it is not known
        guards, unknown = guards_around(n, body, exits)
        for t, when in choices:
            space = space_of(t.base)
            if space is None:
                continue
            out.append(Access(outer, t.base, space, indices, read, write, atomic, cfg_node,
                              tuple(when_guard(c, h) for c, h in when) + guards, unknown, ev=index_ev,
                              offset=t.offset, roots=roots, part=part + more, view=t.view, inner=t.inner))
    return without_annotations(_evaluated(out, syntax), syntax)  # GPUVerify's annotations are never run


def when_guard(cond: Node, holds: bool | tuple[int, ...]) -> Guard:
    """The guard of a pointer's choice: `cond` true or false (`c ? a : b`), or a tuple of the
    values it takes (`ps[k]` of three or more pointers: `k` is `i`), as a switch's case labels."""
    return Guard(cond, True, cases=holds) if isinstance(holds, tuple) else Guard(cond, holds)  # type: ignore[arg-type]


def _held_pointer(names: Names, sub: Node) -> bool:
    """`ps[k]` of a private array of pointers (`global int *ps[2]`): a pointer, subscripted in
    turn (races/pointer_arrays.py says what it holds)."""
    base = sub.child_by_field_name("argument")
    v = names.var(base) if base is not None and base.type == "identifier" else None
    return v is not None and v.pointer and v.array and v.param_index is None and not v.shared \
        and sub.parent is not None and sub.parent.type == "subscript_expression" \
        and sub.parent.child_by_field_name("argument") == sub


def _subscripted(choices: list[tuple[Target, tuple]], dims: int) -> list[tuple[Target, tuple]]:
    """The targets `dims` subscripts name an element of (`t[i]` of a 2-D array is a row, as
    is `t[y]` of a view of rows: `t[y][x]` is its element)."""
    return [(t, w) for t, w in choices
            if (dims == len(t.inner) if t.inner else dims == 1 if t.view or not t.base.array
                else declared_dims(t.base) == dims)]


def _atomic_accesses(out: list[Access], n: Node, fn: str, choices: list[tuple[Target, tuple]], cfg_node: int,
                     body: Node, exits: BlockExits | None) -> None:
    """An atomic built-in's access to the location its first argument points at."""
    for t, when in choices:
        space = space_of(t.base)
        if space is None or t.base.array and declared_dims(t.base) != 1:
            continue
        guards, unknown = guards_around(n, body, exits)
        out.append(Access(n, t.base, space, (), not fn.startswith(ATOMIC_WRITES),
                          not fn.startswith(ATOMIC_READS), True, cfg_node,
                          tuple(when_guard(c, h) for c, h in when) + guards, unknown, offset=t.offset,
                          view=t.view))


def _vector_access(n: Node, store: bool, width: int, many: Callable, cfg_node: int, body: Node,
                   exits: BlockExits | None) -> list[Access]:
    """`vloadn(i, p)` reads, and `vstoren(v, i, p)` writes, the `n` elements of `p` from
    `p[n * i]` (6.15.7): element `i` of `p` seen `n` elements wide (a view), meeting the plain
    accesses to those elements byte by byte."""
    args = n.child_by_field_name("arguments")
    given = [a for a in (args.named_children if args else []) if a.type != "comment"]
    if len(given) != (3 if store else 2):
        return []
    index, pointer = given[-2], given[-1]
    out: list[Access] = []
    guards, unknown = guards_around(n, body, exits)
    for t, when in many(pointer):
        space = space_of(t.base)
        seen = widened(t, width) if space is not None and not (t.base.array and declared_dims(t.base) != 1) else None
        if seen is None:
            continue
        out.append(Access(n, t.base, space, (index,), not store, store, False, cfg_node,
                          tuple(when_guard(c, h) for c, h in when) + guards, unknown, offset=seen.offset,
                          view=seen.view))
    return out


_UNEVALUATED = frozenset({"sizeof_expression", "alignof_expression"})


def _evaluated(accesses: list[Access], syntax: Node) -> list[Access]:
    """`accesses` less those in an operand that is never evaluated: `sizeof(*d)`,
    `_Alignof`, `vec_step(v[0])` read no memory (SURF's `step /= sizeof(*descriptors)`)."""
    if not accesses or not any(w in (syntax.text or b"") for w in (b"sizeof", b"lignof", b"vec_step")):
        return accesses
    ranges = [(n.start_byte, n.end_byte) for n in nodes_of_kinds(syntax, _UNEVALUATED)]
    ranges += [(n.start_byte, n.end_byte) for n in nodes_of_kinds(syntax, frozenset({"call_expression"}))
               if _text(n.child_by_field_name("function")) == "vec_step"]
    return [a for a in accesses if not any(s <= a.node.start_byte < e for s, e in ranges)]


def _copy_sides(call: Node, fn: str, many: Callable[[Node], list[tuple[Target, tuple]]], cfg_node: int,
                body: Node, exits: BlockExits | None) -> list[Access]:
    """`async_work_group_copy(dst, src, n, event)` and `async_work_group_strided_copy(dst, src,
    n, stride, event)`: the work-group writes `dst[0..n)` and reads `src[0..n)` (the `__global`
    side's elements `stride` apart), at any time from the call to the `wait_group_events`
    after it (check.py orders them). Each side whose pointer is followed is an access."""
    args = call.child_by_field_name("arguments")
    named = [a for a in (args.named_children if args else []) if a.type != "comment"]
    if len(named) != (5 if fn == "async_work_group_strided_copy" else 4):
        return []
    count, stride = named[2], named[3] if len(named) == 5 else None
    guards, unknown = guards_around(call, body, exits)
    out: list[Access] = []
    for expr, write in ((named[0], True), (named[1], False)):
        choices = many(expr)
        if len(choices) != 1 or choices[0][1]:
            continue  # one pointer, not a choice: a copy is made by the whole work-group
        t = choices[0][0]
        space = space_of(t.base)
        if space is None or t.base.array and declared_dims(t.base) != 1:
            continue
        steps = stride if space == "global" else None
        out.append(Access(call, t.base, space, (), not write, write, False, cfg_node, guards, unknown,
                          offset=t.offset, roots=(count,) + ((steps,) if steps is not None else ()),
                          view=t.view, copy=(fn, count, steps)))
    return out


def _use(n: Node) -> tuple[bool, bool, bool | None]:
    """(reads, writes, atomic); atomic None when the address is taken for anything else."""
    p = n.parent
    while p is not None and p.type == "parenthesized_expression":
        n, p = p, p.parent
    if p is None:
        return True, False, False
    if p.type == "assignment_expression" and p.child_by_field_name("left") == n:
        return _text(p.child_by_field_name("operator")) != "=", True, False
    if p.type == "update_expression":
        return True, True, False
    if p.type == "pointer_expression" and _text(p.child_by_field_name("operator")) == "&":
        call = p.parent.parent if p.parent is not None and p.parent.type == "argument_list" else None
        fn = _text(call.child_by_field_name("function")) if call is not None else ""
        if call is not None and call.type == "call_expression" and fn.startswith(ATOMIC_PREFIXES) \
                and fn not in NOT_ACCESSES and call.child_by_field_name("arguments").named_children[0] == p:
            return not fn.startswith(ATOMIC_WRITES), not fn.startswith(ATOMIC_READS), True
        return False, False, None
    if p.type == "field_expression" or p.type == "subscript_expression":
        return False, False, None  # a row's element or a `->` through it: not followed
    return True, False, False


class BlockExits:
    """What the statements of each block before a given one decide, read once per block: the
    early exits (`if (c) return;`) that guard later code, and the first statement some
    work-items may leave the block through. Asked for every access, rescanning the earlier
    statements each time was quadratic in a block's length (an unrolled kernel's body)."""

    def __init__(self) -> None:
        self._blocks: dict[int, _Block] = {}

    def before(self, block: Node, child: Node) -> tuple[list[Guard], bool]:
        return self._block(block).before(child)

    def label_is_local(self, statement: Node) -> bool:
        """Whether a labelled statement is reached only by jumps from inside its own block
        (races/labels.py): then it guards nothing."""
        block = statement.parent
        return block is not None and block.type == "compound_statement" \
            and self._block(block).labels.get(_text(statement.child_by_field_name("label"))) \
            == self._block(block).index.get(statement.id)

    def _block(self, block: Node) -> _Block:
        b = self._blocks.get(block.id)
        if b is None:
            b = self._blocks[block.id] = _Block(block)
        return b


class _Block:
    def __init__(self, block: Node) -> None:
        self.children = block.named_children
        self.index = {c.id: i for i, c in enumerate(self.children)}
        self.labels = local_labels(block)  # its labels no jump from outside it reaches
        self.scanned = 0  # statements read so far, in order
        # (index, guard, until) of each early exit read: it guards the statements after it, up
        # to `until` (a forward `if (c) goto L;` to a label of this block: up to L)
        self.exits: list[tuple[int, Guard, float]] = []
        self.jumps_at: int | None = None  # index of the first statement that may jump out
        self.skips: list[tuple[int, float]] = []  # (index, label index) of jumps forward to a label here

    def before(self, child: Node) -> tuple[list[Guard], bool]:
        i = self.index.get(child.id, len(self.children))
        while self.scanned < i:
            at, sib = self.scanned, self.children[self.scanned]
            g = _early_exit(sib)
            target = goto_target(sib) if self.labels and g is None else None
            if g is not None:
                self.exits.append((at, g, len(self.children)))
            elif target is not None and target in self.labels:
                if self.labels[target] > at:  # (a jump back, a loop, loses no one later)
                    self.exits.append((at, Guard(sib.child_by_field_name("condition"), False), self.labels[target]))
            elif self.jumps_at is None and _may_jump_out(sib, self.labels):
                self.jumps_at = at
            elif (until := skipped_until(sib, at, self.labels)) is not None:
                self.skips.append((at, until))
            self.scanned += 1
        return [g for at, g, until in self.exits if at < i < until], \
            self.jumps_at is not None and self.jumps_at < i or any(at < i < until for at, until in self.skips)


def guards_around(n: Node, body: Node, exits: BlockExits | None = None) -> tuple[tuple[Guard, ...], bool]:
    exits = exits if exits is not None else BlockExits()
    guards: list[Guard] = []
    unknown = False
    for child, p in _enclosing(n, body):
        t = p.type
        if t == "if_statement":
            cond = p.child_by_field_name("condition")
            if child == p.child_by_field_name("consequence"):
                guards.append(Guard(cond, True))
            elif child.type == "else_clause" or child == p.child_by_field_name("alternative"):
                guards.append(Guard(cond, False))
        elif t == "conditional_expression":
            cond = p.child_by_field_name("condition")
            if child == p.child_by_field_name("consequence"):
                guards.append(Guard(cond, True))
            elif child == p.child_by_field_name("alternative"):
                guards.append(Guard(cond, False))
        elif t == "binary_expression" and child == p.child_by_field_name("right"):
            op = _text(p.child_by_field_name("operator"))
            if op in ("&&", "||"):
                guards.append(Guard(p.child_by_field_name("left"), op == "&&"))
        elif t in ("while_statement", "for_statement") and child == p.child_by_field_name("body"):
            cond = p.child_by_field_name("condition")
            if cond is not None:
                guards.append(Guard(cond, True))
        elif t == "case_statement":
            g = _case_guard(p, child)
            if g is None:
                unknown = True
            else:
                guards.append(g)
        elif t == "labeled_statement":
            unknown = unknown or not exits.label_is_local(p)  # (labels.py: reached as its block is)
        elif t == "do_statement" and child != p.child_by_field_name("body"):
            unknown = True  # (the body runs once whatever its condition says: no guard)
        elif t == "compound_statement" and not (p.parent is not None and p.parent.type == "switch_statement"):
            before, jumps = exits.before(p, child)  # (a switch's cases: `_case_guard`)
            guards.extend(before)
            unknown = unknown or jumps
    return tuple(guards), unknown


def _case_guard(case: Node, child: Node) -> Guard | None:
    """The guard of a statement under a `switch`'s `case` (or `default`) that nothing falls
    into: the value is one of the case's labels (empty cases just before it share its
    statements), or for `default` none of the others. None where an earlier case falls
    through into it, or an earlier statement of the case may leave it (`break` in an `if`)."""
    body = case.parent
    switch = body.parent if body is not None else None
    if switch is None or switch.type != "switch_statement" or child == case.child_by_field_name("value"):
        return None
    cond = switch.child_by_field_name("condition")
    cases = [c for c in body.named_children if c.type == "case_statement"]
    if cond is None or len(cases) != sum(1 for c in body.named_children if c.type != "comment"):
        return None  # statements outside any case, or labels: not modelled
    i = cases.index(case)
    run = [case]
    while i > 0 and not _statements(cases[i - 1]):
        i -= 1
        run.insert(0, cases[i])  # `case 1: case 2: ...`
    if i > 0 and _statements(cases[i - 1])[-1].type not in JUMPS:
        return None  # the case before falls through into this one
    mine = _statements(case)
    if any(_may_jump_out(s) for s in mine[: mine.index(child)] if s.type not in JUMPS) \
            or any(s.type in JUMPS for s in mine[: mine.index(child)]):
        return None
    values = [c.child_by_field_name("value") for c in run]
    if None not in values:
        return Guard(cond, True, cases=tuple(values))  # type: ignore[arg-type]
    if len(run) != 1:
        return None  # `case 1: default: ...`
    others = tuple(c.child_by_field_name("value") for c in cases if c != case)
    return Guard(cond, False, cases=others) if None not in others else None  # type: ignore[arg-type]


def _statements(case: Node) -> list[Node]:
    value = case.child_by_field_name("value")
    return [c for c in case.named_children if c != value and c.type != "comment"]


def _enclosing(n: Node, body: Node) -> list[tuple[Node, Node]]:
    """(child, parent) from `n` up to `body`, innermost first, read going down (`descend`)."""
    path = descend(body, n)
    if path is None:  # not under `body`: climb
        pairs, child, p, stop = [], n, n.parent, body.parent
        while p is not None and p != stop:
            pairs.append((child, p))
            child, p = p, p.parent
        return pairs
    return list(zip(path[:0:-1], path[-2::-1]))


def _early_exit(s: Node) -> Guard | None:
    """`if (c) return;` (or break/continue, braces allowed, no else): later code runs where c is false."""
    if s.type != "if_statement" or s.child_by_field_name("alternative") is not None:
        return None
    cons = s.child_by_field_name("consequence")
    while cons is not None and cons.type == "compound_statement" and cons.named_child_count == 1:
        cons = cons.named_children[0]
    if cons is None or cons.type not in JUMPS:
        return None
    return Guard(s.child_by_field_name("condition"), False)


_LOOP_KINDS = frozenset({"for_statement", "while_statement", "do_statement"})
_JUMP_WORDS = (b"return", b"goto", b"break", b"continue", b":")


def _may_jump_out(s: Node, labels: dict[str, int] | None = None) -> bool:
    """A statement some work-items may leave the enclosing block through (not modelled);
    `labels`, the block's local labels (labels.py): a jump to one, or `s` labelled by one, stays
    in the block (`_Block.skips` reads what a jump forward skips)."""
    text = s.text  # (None where the tree keeps no source: then walked)
    if text is not None and not s.has_error and not any(w in text for w in _JUMP_WORDS):
        return False  # each kind below is spelled with one of these words (a label: its ':')
    for n in walk(s):
        if labels and (n.type == "goto_statement" and _text(n.child_by_field_name("label")) in labels
                       or n == s and n.type == "labeled_statement" and _text(n.child_by_field_name("label")) in labels):
            continue
        if n.type in ("return_statement", "goto_statement", "labeled_statement"):
            return True
        if n.type in ("break_statement", "continue_statement"):
            # what it leaves: the nearest loop (or, for `break`, switch); s itself included
            kinds = _LOOP_KINDS | ({"switch_statement"} if n.type == "break_statement" else set())
            p = n.parent
            while p is not None and p.type not in kinds and p != s:
                p = p.parent
            if p is None or p.type not in kinds:
                return True
    return False
