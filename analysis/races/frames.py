"""What a function's pointers point into, for the race search: the kernel's `__local`
arrays and shared pointer arguments, pointers derived from them (`tile + lid * W`,
`&tile[lid]`), and, inside a helper, its pointer parameters bound to what the call passes.

A helper's body is read once per call site with its parameters substituted (the summary
of which parameters it reads or writes at which index, applied where it is called).
Anything not followed (a cast through a type of unknown size, a pointer assigned more than
once unless an if/else chooses it: races/choices.py, a 2-D array's row)
has no target, and the accesses through it stay out of the check. A cast to a scalar or
vector type views the same bytes (`Target.view`): offsets after it count bytes.
"""

from __future__ import annotations

from collections.abc import Callable
from math import prod
from typing import Any

from tree_sitter import Node

from cllint.analysis.races.choices import Choice
from cllint.analysis.races.evaluate import Env, Evaluator
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity.names import Names, VarInfo

MAX_DEPTH = 8  # pointer definitions followed, one through another

# (evaluator of the frame that wrote it, expression, +1 or -1): added to the first index
Offset = tuple[Evaluator, Node, int]


class Target:
    __slots__ = ("base", "offset", "view", "inner")
    base: VarInfo  # the kernel's __local array or shared pointer argument
    offset: tuple[Offset, ...]
    view: int  # through a cast (`(global uchar *)f`): the viewed type's size, offsets in bytes; 0 none
    # through a cast to rows (`(local float (*)[8])buf`): the bytes of a row's element, then the
    # extents of a row (`(*)[4][8]`: (4, 4, 8)); () none
    inner: tuple[int, ...]

    __match_args__ = ("base", "offset", "view", "inner")

    def __init__(self, base: VarInfo, offset: tuple[Offset, ...] = (), view: int = 0,
                 inner: tuple[int, ...] = ()) -> None:
        self.base = base
        self.offset = offset
        self.view = view
        self.inner = inner

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(base={self.base!r}, offset={self.offset!r}, view={self.view!r}, "
                f"inner={self.inner!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.base, self.offset, self.view, self.inner) == (other.base, other.offset, other.view, other.inner)

    def __hash__(self) -> int:
        return hash((self.base, self.offset, self.view, self.inner))


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def declared_dims(v: VarInfo) -> int:
    """How many extents the declarator of an array gives (`t[A][B]` -> 2)."""
    node, n = v.decl.parent, 0
    while node is not None and node.type == "array_declarator":
        n, node = n + 1, node.parent
    return n


def one_dimensional(v: VarInfo) -> bool:
    return not v.array or declared_dims(v) == 1


class FrameEvaluator(Evaluator):
    """A helper's evaluator: a parameter never assigned in the helper has the value of
    the argument its call passes, evaluated in the caller's frame for the same work-item."""

    def __init__(self, names: Names, defs: dict[int, Node], counters: set[int], constant,
                 params: dict[int, tuple[Evaluator, Node]]) -> None:
        super().__init__(names, defs, counters, constant, lambda v: False)
        self.params = params

    def identifier(self, node: Node, env: Env) -> int | None:
        v = self.names.var(node)
        if v is not None and v.param_index is not None:
            bound = self.params.get(v.key)
            return bound[0].value(bound[1], env) if bound is not None else None
        return super().identifier(node, env)


class Frame:
    names: Names
    ev: Evaluator
    defs: dict[int, Node]
    moved: set[int]  # variables assigned (or whose address is taken) in the body
    kernel: bool
    bound: dict[int, Target]  # pointer parameter -> the argument's target
    choices: dict[int, Choice]  # pointers chosen by an if/else (races/choices.py)

    __match_args__ = ("names", "ev", "defs", "moved", "kernel", "bound", "choices")

    def __init__(
        self,
        names: Names,
        ev: Evaluator,
        defs: dict[int, Node],
        moved: set[int],
        kernel: bool,
        bound: dict[int, Target] | None = None,
        choices: dict[int, Choice] | None = None,
    ) -> None:
        self.names = names
        self.ev = ev
        self.defs = defs
        self.moved = moved
        self.kernel = kernel
        self.bound = {} if bound is None else bound
        self.choices = {} if choices is None else choices
        # a helper's struct parameter -> the caller's frame and the struct it was handed
        # (`put(s, ...)`, `put(&s, ...)`: races/struct_params.py), read where it is `s.p`/`s->p`
        self.structs: dict[int, tuple[Frame, Node]] = {}
        # a field a helper gave an offset of its argument (`s->p = buf + o`: races/struct_fills.py),
        # field key -> the offsets (a node this frame evaluates, a sign) added to its definition
        self.shifts: dict[int, tuple[tuple[Node, int], ...]] = {}
        self._steps: dict[int, list | None] = {}  # `_stepped`, per pointer
        self._typedef_rows: dict[int, tuple[int, tuple[int, ...]]] = {}  # `_rows_of`, per pointer
        # private arrays of pointers, key -> their elements' values (races/pointer_arrays.py)
        self.arrays: dict[int, tuple[Node, ...]] = {}
        # `while` loops walking a pointer to an end, loop id -> races.pointer_walks.Walk: a
        # pointer stepped at the end of such a loop's pass is followed inside it
        self.walks: dict[int, Any] = {}
        # the kernel's `for` counters, key -> (init, condition, update, loop) (definitions.py):
        # a pointer stepped once per pass of such a loop is followed inside it (`_steps_of`)
        self.loops: dict[int, tuple] = {}
        # a helper's call -> the pointer it returns, read in a frame bound to the call (calls.py)
        self.returns: Callable[[Node, Frame, int], Target | None] | None = None
        # a helper's call -> the pointers it returns by `c ? x : y` on a parameter `c`, each with
        # the condition on the call's argument under which it does (calls.py)
        self.picks: Callable[[Node, Frame, int], list[tuple[Target, tuple]]] | None = None

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"names={self.names!r}, " f"ev={self.ev!r}, "
                f"defs={self.defs!r}, " f"moved={self.moved!r}, " f"kernel={self.kernel!r}, "
                f"bound={self.bound!r}, " f"choices={self.choices!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.names, self.ev, self.defs, self.moved, self.kernel, self.bound, self.choices)
        theirs = (other.names, other.ev, other.defs, other.moved, other.kernel, other.bound, other.choices)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def target(self, v: VarInfo, depth: int = 0) -> Target | None:
        """What the pointer or array `v` points into, if followed."""
        if v.array and v.shared and not v.pointer and (self.kernel or _program_scope(v)):
            return Target(v)  # a __local array, or a program-scope one (the same in every function)
        if self.kernel and v.pointer and v.pointee_shared and not v.array and v.param_index is not None \
                and v.key not in self.moved:
            return self._rows_of(v) or Target(v)  # a kernel's pointer argument, never moved
        if v.param_index is not None:
            return self.bound.get(v.key)
        if v.pointer and not v.array and v.key not in self.moved and depth < MAX_DEPTH:
            d = self.defs.get(v.key)  # a private pointer defined once, by its initialiser
            return self.target_of(d, depth + 1) if d is not None else None
        return None

    def scalar_of(self, ident: Node) -> Target | None:
        """A kernel's `__local` scalar (`__local int base;`) named by `ident`: one element."""
        v = self.names.var(ident)
        if v is None or not v.shared or v.pointer or v.array or v.param_index is not None \
                or not (self.kernel or _program_scope(v)):
            return None
        return Target(v)

    def targets_of(self, expr: Node | None, depth: int = 0) -> list[tuple[Target, tuple]]:
        """Each target `expr` may point into, with the conditions ((node, holds), ...) under
        which it does: a pointer chosen by `c ? a : b` (or defined once by one, or chosen by an
        if/else: `choices`) is `a` where `c` holds and `b` where it does not; anything else is
        `target_of`."""
        while expr is not None and expr.type == "parenthesized_expression" and expr.named_child_count == 1:
            expr = expr.named_children[0]
        if expr is None or depth > MAX_DEPTH:
            return []
        if expr.type == "identifier":
            v = self.names.var(expr)
            if v is not None and v.key in self.choices:
                return self._pick(*self.choices[v.key], depth)
            d = self.defs.get(v.key) if v is not None and v.pointer and not v.array and v.key not in self.moved \
                and v.param_index is None else None
            if d is not None and (_choice(d) is not None or d.type == "call_expression" and self.picks is not None):
                return self.targets_of(d, depth + 1)
        c = _choice(expr)
        if c is not None:
            return self._pick(*c, depth)
        held = self._held(expr)
        if held is not None:  # `ps[lid & 1]` of `{a, b}`: `lid & 1 ? b : a`
            elements, index, k = held
            if k is not None:
                return self.targets_of(elements[k], depth + 1) if 0 <= k < len(elements) else []
            if len(elements) == 2:
                return self._pick(index, elements[1], elements[0], depth)
            return self._among(index, elements, depth)
        if expr.type == "call_expression" and self.picks is not None:
            picked = self.picks(expr, self, depth + 1)
            if picked:
                return picked
        t = self.target_of(expr, depth)
        return [(t, ())] if t is not None else []

    def _pick(self, cond: Node, a: Node, b: Node, depth: int) -> list[tuple[Target, tuple]]:
        left, right = self.targets_of(a, depth + 1), self.targets_of(b, depth + 1)
        if not left or not right:
            return []  # one side not followed: which work-items use the other is unknown
        return [(t, ((cond, True), *w)) for t, w in left] + [(t, ((cond, False), *w)) for t, w in right]

    def _among(self, index: Node, elements: tuple[Node, ...], depth: int) -> list[tuple[Target, tuple]]:
        """`ps[k]` of three or more pointers, `k` computed: element `i` where `k` is `i` (the only
        places in bounds), a condition `(k, (i,))` (accesses.when_guard: a case label)."""
        out: list[tuple[Target, tuple]] = []
        for i, e in enumerate(elements):
            picked = self.targets_of(e, depth + 1)
            if not picked:
                return []  # one not followed: which work-items use the others is unknown
            out += [(t, ((index, (i,)), *w)) for t, w in picked]
        return out

    def target_of(self, expr: Node | None, depth: int = 0) -> Target | None:
        """The target of a pointer expression: `p`, `p + e`, `e + p`, `p - e`, `&p[e]`."""
        while expr is not None and expr.type == "parenthesized_expression" and expr.named_child_count == 1:
            expr = expr.named_children[0]
        if expr is None or depth > MAX_DEPTH:
            return None
        if expr.type == "identifier":
            v = self.names.var(expr)
            if v is None:
                return None
            t = self.target(v, depth)
            return t if t is not None or v.key not in self.moved else self._stepped(v, expr, depth)
        if expr.type == "binary_expression":
            op = _text(expr.child_by_field_name("operator"))
            left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
            if op not in ("+", "-") or left is None or right is None:
                return None
            t = self.target_of(left, depth + 1)
            if t is not None and self._integer(right):
                return _shifted(t, (self.ev, right, 1 if op == "+" else -1))
            t = self.target_of(right, depth + 1) if op == "+" else None
            if t is not None and self._integer(left):
                return _shifted(t, (self.ev, left, 1))
            return None
        if expr.type == "field_expression" and (handed := self._handed(expr)) is not None:
            caller, struct = handed  # `s.p`/`s->p` of a struct the caller handed over: its `s.p`
            field = expr.child_by_field_name("field")
            return caller.field_target(struct, field.text, depth + 1) if field is not None and field.text else None
        if expr.type == "field_expression" and _text(expr.child_by_field_name("operator")) == ".":
            # a pointer kept in a private struct's field assigned once (`r.p = A;`), or given by
            # the initialiser of a struct never written after (`ref_t r = { A };`): what it was given
            key = self.ev.field_key(expr)
            base = expr.child_by_field_name("argument")
            whole = self.names.var(base) if base is not None and base.type == "identifier" else None
            if key is not None and whole is not None and self.defs.get(whole.key) is not None:
                return None  # given by an initialiser and assigned again: which one a use sees is not read
            d = self.defs.get(key) if key is not None else self._initialised_field(expr)
            return self._field_def_target(key, d, depth)
        if expr.type == "call_expression":  # a helper that returns a pointer (`return b + i;`)
            return self.returns(expr, self, depth + 1) if self.returns is not None else None
        if expr.type == "subscript_expression":  # `ps[1]` of a private array of pointers
            held = self._held(expr)
            if held is None:
                return self._cell_of(expr, depth, row=True)  # `A[i][j]` of `A[4][4][4]`: a row
            k = held[2]
            return self.target_of(held[0][k], depth + 1) if k is not None and 0 <= k < len(held[0]) else None
        if expr.type == "cast_expression":  # a view of the same bytes as another type
            descriptor = expr.child_by_field_name("type")
            size, inner = view_size(descriptor), ()
            if not size:
                size, inner = row_view_size(descriptor, self._extent)  # `(local float (*)[8])`: rows of 8
            t = self.target_of(expr.child_by_field_name("value"), depth + 1)
            seen = _viewed(t, size, bool(inner)) if t is not None and size else None
            return Target(seen.base, seen.offset, seen.view, inner) if seen is not None and inner else seen
        if expr.type == "pointer_expression" and _text(expr.child_by_field_name("operator")) == "&":
            sub = expr.child_by_field_name("argument")
            while sub is not None and sub.type == "parenthesized_expression" and sub.named_child_count == 1:
                sub = sub.named_children[0]
            if sub is not None and sub.type == "identifier":
                return self.scalar_of(sub)  # `&base` of a __local scalar
            if sub is None or sub.type != "subscript_expression":
                return None
            cell = self._cell_of(sub, depth, row=False)  # `&A[i][j][k]` of a multi-dimensional array
            if cell is not None:
                return cell
            t = self.target_of(sub.child_by_field_name("argument"), depth + 1)
            index = sub.child_by_field_name("index")
            return _shifted(t, (self.ev, index, 1)) if t is not None and index is not None else None
        return None

    def _handed(self, expr: Node) -> tuple[Frame, Node] | None:
        """The caller's frame and struct behind `s.f`/`s->f` of a struct parameter `s`."""
        if not self.structs:
            return None
        base = expr.child_by_field_name("argument")
        while base is not None and base.type == "parenthesized_expression" and base.named_child_count == 1:
            base = base.named_children[0]
        v = self.names.var(base) if base is not None and base.type == "identifier" else None
        return self.structs.get(v.key) if v is not None else None

    def field_target(self, struct: Node, field: bytes, depth: int) -> Target | None:
        """What field `field` of the struct named by `struct` (an identifier of this frame)
        points into: a private struct's field assigned once or given by its initialiser, or,
        for a struct this frame was handed, its caller's."""
        v = self.names.var(struct)
        if v is None or depth > MAX_DEPTH:
            return None
        if v.key in self.structs:
            caller, outer = self.structs[v.key]
            return caller.field_target(outer, field, depth + 1)
        if v.param_index is not None:
            return None
        key = self.names.fields.get(v.key, {}).get(field.decode("utf-8", "replace"))
        if key is not None and self.defs.get(v.key) is not None:
            return None  # given by an initialiser and assigned again (as `target_of`)
        d = self.defs.get(key) if key is not None else self._initialised(v, field)
        return self._field_def_target(key, d, depth)

    def _field_def_target(self, key: int | None, d: Node | None, depth: int) -> Target | None:
        """The target of a field's definition `d`, moved by the offsets a filler gave it."""
        t = self.target_of(d, depth + 1) if d is not None else None
        for node, sign in self.shifts.get(key, ()) if key is not None else ():
            t = _shifted(t, (self.ev, node, sign)) if t is not None else None
        return t

    def _initialised_field(self, expr: Node) -> Node | None:
        """The element of a private struct's initialiser list (positional: no designators) that
        gives the field `expr` names (`r.p` of `ref_t r = { A, 1 };`: `A`), where the struct is
        defined once (never written after) and its type is a file-scope typedef of a struct."""
        base, field = expr.child_by_field_name("argument"), expr.child_by_field_name("field")
        v = self.names.var(base) if base is not None and base.type == "identifier" else None
        return self._initialised(v, field.text) if v is not None and field is not None and field.text else None

    def _initialised(self, v: VarInfo, field: bytes) -> Node | None:
        init = self.defs.get(v.key) if not (v.pointer or v.array or v.shared) else None
        if init is None or init.type != "initializer_list":
            return None
        decl = v.decl.parent
        named = decl.parent.child_by_field_name("type") if decl is not None and decl.parent is not None else None
        order = struct_fields(named) if named is not None and named.type == "type_identifier" else None
        items = [c for c in init.named_children if c.type != "comment"]
        if not order or field not in order or any(c.type == "initializer_pair" for c in items):
            return None
        i = order.index(field)
        return items[i] if i < len(items) else None

    def _cell_of(self, sub: Node, depth: int, row: bool) -> Target | None:
        """The element (a row, `row`: fewer subscripts than extents) that subscripts of a
        multi-dimensional array name (`A[0][r]` of `local float A[4][4][4]`), as a pointer
        into its bytes in order (as `(local float *)A` is): each subscript times its stride."""
        indices: list[Node] = []
        root: Node | None = sub
        while root is not None and root.type == "subscript_expression":
            index = root.child_by_field_name("index")
            if index is None:
                return None
            indices.insert(0, index)
            root = root.child_by_field_name("argument")
            while root is not None and root.type == "parenthesized_expression" and root.named_child_count == 1:
                root = root.named_children[0]
        v = self.names.var(root) if root is not None and root.type == "identifier" else None
        if v is None or not v.array or v.pointer or one_dimensional(v):
            return None
        extents = self._array_extents(v)
        own = element_size(v)
        if extents is None or not own or len(indices) > len(extents) or row and len(indices) == len(extents):
            return None
        t = self.target(v, depth)
        if t is None or t.offset or t.view:
            return None
        strides = [own] * len(extents)
        for d in range(len(extents) - 2, -1, -1):
            strides[d] = strides[d + 1] * extents[d + 1]
        return Target(v, tuple((self.ev, n, strides[d]) for d, n in enumerate(indices)), own)

    def _array_extents(self, v: VarInfo) -> list[int] | None:
        """The extents of an array's declaration (`A[4][N][8]`), in order; None where one is not
        a constant."""
        return self._extents_above(v.decl.parent)

    def _extents_above(self, d: Node | None) -> list[int] | None:
        """The constant extents of the array declarators from `d` outwards (the one nearest
        the name holds the first extent); None where one is not a constant."""
        out: list[int] = []
        while d is not None and d.type == "array_declarator":
            size = d.child_by_field_name("size")
            n = self._extent(size) if size is not None else None
            if n is None or n <= 0:
                return None
            out.append(n)
            d = d.parent
        return out

    def _held(self, expr: Node) -> tuple[tuple[Node, ...], Node, int | None] | None:
        """A subscript of a private array of pointers (`arrays`): its elements, the index, and
        the index's value where it is a constant."""
        if expr.type != "subscript_expression" or not self.arrays:
            return None
        base, index = expr.child_by_field_name("argument"), expr.child_by_field_name("index")
        v = self.names.var(base) if base is not None and base.type == "identifier" else None
        elements = self.arrays.get(v.key) if v is not None else None
        if elements is None or index is None:
            return None
        k = self.ev.value(index, Env((0, 0, 0), (1, 1, 1), (0, 0, 0)))
        return elements, index, k if isinstance(k, int) and not self._placed_index(index, k) else None

    def _placed_index(self, index: Node, k0: object) -> bool:
        """Whether an index may differ between work-items or passes (`lid & 1`, `i`): read
        with one work-item's values (`k0`, work-item 0's) it is not a constant."""
        k1 = self.ev.value(index, Env((1, 1, 1), (2, 2, 2), (1, 1, 1), sample=lambda s: 1_000_033))
        # (and the next work-item of group 0: `gid % 3` is 0 at both of the above, global ids 0 and 3)
        return k0 != k1 or k0 != self.ev.value(index, Env((1, 1, 1), (2, 2, 2), (0, 0, 0), sample=lambda s: 1_000_033))

    def _rows_of(self, v: VarInfo) -> Target | None:
        """A pointer argument declared to arrays (`global float (*A)[8][8]`): `A[i][j][k]` is
        the element of its bytes in order, as a cast to that type makes it."""
        d = v.decl.parent
        if d is not None and d.type == "pointer_declarator" and d.parent is not None \
                and d.parent.type == "parameter_declaration":  # `global block_t *A`, a typedef of an array
            # (read once per pointer: the typedef is looked up among the file's items)
            got = self._typedef_rows.get(v.key)
            if got is None:
                named = d.parent.child_by_field_name("type")
                got = self._typedef_rows[v.key] = _typedef_rows(named, self._extent) if named is not None \
                    and named.type == "type_identifier" else (0, ())
            row, inner = got
            return Target(v, (), row, inner) if row else None
        if d is not None and d.type == "array_declarator" and d.parent is not None \
                and d.parent.type == "array_declarator":  # `global float A[4][8]`: a pointer to rows of 8
            extents = self._extents_above(d.parent)
            own = element_size(v)
            return Target(v, (), own * prod(extents), (own, *extents)) if extents and own else None
        if d is None or d.type != "pointer_declarator" or d.parent is None \
                or d.parent.type != "parenthesized_declarator":
            return None
        extents = self._extents_above(d.parent.parent)
        own = element_size(v)
        if not extents or not own:
            return None
        return Target(v, (), own * prod(extents), (own, *extents))

    def _extent(self, size: Node) -> int | None:
        """An array extent in a cast's type: a literal or a macro for one."""
        v = self.ev.value(size, Env((0, 0, 0), (1, 1, 1), (0, 0, 0)))
        return v if isinstance(v, int) else None

    def _stepped(self, v: VarInfo, use: Node, depth: int) -> Target | None:
        """A pointer moved only by statements of the function's own body (`p++;`, `in +=
        get_group_id(0) * n;`), each of which runs once, before everything after it: at
        `use`, its start (a private pointer's initialiser, or a kernel's pointer argument)
        shifted by the steps before it. Anything else that moves it is not followed."""
        if not v.pointer or v.array or depth >= MAX_DEPTH:
            return None
        steps = self._steps.get(v.key, _UNREAD)
        if steps is _UNREAD:
            steps = self._steps[v.key] = self._steps_of(v)
        if steps is None or any(st.start_byte <= use.start_byte < st.end_byte for st, _ in steps):
            return None
        if v.param_index is not None:
            t = Target(v) if self.kernel and v.pointee_shared else None
        else:
            d = v.decl.parent
            while d is not None and d.type == "pointer_declarator":
                d = d.parent
            t = self.target_of(d.child_by_field_name("value"), depth + 1) \
                if d is not None and d.type == "init_declarator" else None
        for st, off in steps:
            walked = off[0] if isinstance(off[0], _Walked) else None
            if t is None or walked is None and st.end_byte > use.start_byte \
                    or walked is not None and use.start_byte < walked.loop.start_byte:
                break
            if walked is not None:
                if use.start_byte >= walked.loop.end_byte:
                    return None  # after the loop: as many steps as it ran passes, not counted here
                # inside it: the passes before this one stepped it, and this one where the step
                # comes before the use
                # (a `for`'s update runs after its body, though written before it)
                this_one = st.end_byte <= use.start_byte and st.parent is not None and st.parent.type != "for_statement"
                off = (walked.passes(this_one), off[1], off[2])
            t = _shifted(t, off)
        return t

    def _steps_of(self, v: VarInfo) -> list[tuple[Node, Offset]] | None:
        func = v.decl
        while func is not None and func.type != "function_definition":
            func = func.parent
        body = func.child_by_field_name("body") if func is not None else None
        if body is None:
            return None
        out: list[tuple[Node, Offset]] = []
        for n in walk(body):
            if n.type not in ("assignment_expression", "update_expression", "pointer_expression"):
                continue
            target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
            if target is None or target.type != "identifier" or self.names.var(target) is not v:
                continue
            st = n.parent
            if n.type == "pointer_expression":
                if _text(n.child_by_field_name("operator")) == "&":
                    return None  # its address escapes
                continue
            if st is not None and st.type == "for_statement" and st.child_by_field_name("update") == n:
                st = n  # a `for`'s update: a walk's step (`_walk_of`), else not followed
            elif st is None or st.type != "expression_statement":
                return None
            walked = None
            walk_ = self._walk_of(st, v)
            if st.parent != body and walk_ is None:
                walked = self._pass_of(st, body)
                if walked is None:
                    return None  # moved in a branch, or a loop not read: not followed
            if n.type == "update_expression":
                by: tuple[Evaluator, Node] = (_Fixed(self.names, 1), n)
                sign = 1 if "++" in _text(n) else -1
            else:
                op, right = _text(n.child_by_field_name("operator")), n.child_by_field_name("right")
                if op == "=" and right is not None:
                    op, right = _self_shift(right, v, self.names)  # `p = p + 2;` as `p += 2;`
                if op not in ("+=", "-=") or right is None:
                    return None
                by, sign = (self.ev, right), 1 if op == "+=" else -1
            if walk_ is not None:
                out.append((st, (_WhileWalked(self.names, self.ev, walk_.loop.id, walk_.loop, by), st, sign)))
            elif walked is not None:
                key, (init, _, update, loop) = walked
                out.append((st, (_Walked(self.names, self.ev, key, init, update, loop, by), update, sign)))
            else:
                out.append((st, (by[0], by[1], sign)))
        return out

    def _walk_of(self, st: Node, v: VarInfo) -> Any:
        """The `while` walk (`walks`) whose step `st` is, of the pointer `v`; None otherwise."""
        block = st.parent
        loop = block.parent if block is not None and block.type == "compound_statement" \
            else block if block is not None and block.type == "for_statement" else None  # (a `for`'s update)
        w = self.walks.get(loop.id) if loop is not None and self.walks else None
        return w if w is not None and w.step == st and w.key == v.key else None

    def _pass_of(self, st: Node, body: Node) -> tuple[int, tuple] | None:
        """The counter and loop of a `for` at the body's top level whose own block holds `st`
        at its top level, with no `break`, `continue`, `return` or `goto` in it: `st` runs
        once per pass, its counter changed only by the header (definitions.py)."""
        block = st.parent
        loop = block.parent if block is not None and block.type == "compound_statement" else None
        if loop is None or loop.type != "for_statement" or loop.parent != body:
            return None
        for key, info in self.loops.items():
            if info[3] == loop and info[0] is not None and info[2] is not None:
                if any(m.type in _LEAVES for m in walk(block)):
                    return None
                return key, info
        return None

    def _integer(self, expr: Node) -> bool:
        """Not itself a pointer (the other operand of pointer arithmetic)."""
        return self.target_of(expr, MAX_DEPTH) is None and not (
            expr.type == "identifier" and (v := self.names.var(expr)) is not None and (v.pointer or v.array))


def _program_scope(v: VarInfo) -> bool:
    """Declared at the file's top level (`global int g[64];`): one object for every function."""
    d = v.decl.parent
    while d is not None and d.type not in ("declaration", "translation_unit", "function_definition"):
        d = d.parent
    return d is not None and d.type == "declaration" and d.parent is not None and d.parent.type == "translation_unit"


def _self_shift(value: Node, v: VarInfo, names: Names) -> tuple[str, Node | None]:
    """`p + e` or `p - e` assigned to `p`: ('+=', e) or ('-=', e); ('=', None) for anything else."""
    while value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    op = _text(value.child_by_field_name("operator")) if value.type == "binary_expression" else ""
    left, right = value.child_by_field_name("left"), value.child_by_field_name("right")
    if op in ("+", "-") and left is not None and left.type == "identifier" and names.var(left) is v:
        return op + "=", right
    return "=", None


class _Fixed(Evaluator):
    """An offset that is a constant (`p++`: 1), read as indices are."""

    def __init__(self, names: Names, n: int) -> None:
        super().__init__(names, {}, set(), lambda node: None, lambda v: False)
        self.n = n

    def value(self, node: Node | None, env: Env) -> int:
        return self.n


class _Walked(Evaluator):
    """The offset a pointer stepped once per pass of a `for` has at a use in it: the passes
    so far (`(i - init) / step` of its counter, plus this one's where the step comes before
    the use) times what one step adds."""

    def __init__(self, names: Names, ev: Evaluator, key: int, init: Node, update: Node, loop: Node,
                 by: tuple[Evaluator, Node], extra: int = 0) -> None:
        super().__init__(names, {}, set(), lambda node: None, lambda v: False)
        self.ev, self.key, self.init, self.update, self.loop, self.by, self.extra = \
            ev, key, init, update, loop, by, extra

    def passes(self, this_one: bool) -> _Walked:
        return _Walked(self.names, self.ev, self.key, self.init, self.update, self.loop, self.by, int(this_one))

    def value(self, node: Node | None, env: Env) -> int | None:
        i = env.counters.get(self.key)
        start = self.ev.value(self.init, env)
        step = _counter_step(self.ev, self.update, env)
        k = self.by[0].value(self.by[1], env)
        if not isinstance(i, int) or not isinstance(start, int) or not step or not isinstance(k, int) \
                or (i - start) % step:
            return None
        return ((i - start) // step + self.extra) * k


class _WhileWalked(_Walked):
    """The offset a pointer walked by a `while` loop (races/pointer_walks.py) has at a use in
    it: the passes so far (the loop's own pass counter, keyed by the loop's node id, which
    the race check enumerates) times what one step adds."""

    def __init__(self, names: Names, ev: Evaluator, key: int, loop: Node, by: tuple[Evaluator, Node],
                 extra: int = 0) -> None:
        super().__init__(names, ev, key, loop, loop, loop, by, extra)
        self.walk_key = key

    def passes(self, this_one: bool) -> _WhileWalked:
        return _WhileWalked(self.names, self.ev, self.key, self.loop, self.by, int(this_one))

    def value(self, node: Node | None, env: Env) -> int | None:
        j = env.counters.get(self.key)
        k = self.by[0].value(self.by[1], env)
        return (j + self.extra) * k if isinstance(j, int) and isinstance(k, int) else None


def _counter_step(ev: Evaluator, update: Node, env: Env) -> int | None:
    """What a `for` header's update adds to its counter: `i++` 1, `i--` -1, `i += c` c."""
    if update.type == "update_expression":
        return 1 if "++" in _text(update) else -1
    if update.type == "assignment_expression":
        op, right = _text(update.child_by_field_name("operator")), update.child_by_field_name("right")
        c = ev.value(right, env) if right is not None and op in ("+=", "-=") else None
        return (c if op == "+=" else -c) if isinstance(c, int) else None
    return None


_LEAVES = frozenset({"break_statement", "continue_statement", "return_statement", "goto_statement"})
_UNREAD: object = object()  # `_steps`: not yet read


def _choice(expr: Node) -> tuple[Node, Node, Node] | None:
    """`c ? a : b` (parentheses allowed): (c, a, b)."""
    while expr.type == "parenthesized_expression" and expr.named_child_count == 1:
        expr = expr.named_children[0]
    if expr.type != "conditional_expression":
        return None
    c, a, b = (expr.child_by_field_name(f) for f in ("condition", "consequence", "alternative"))
    return (c, a, b) if c is not None and a is not None and b is not None else None


def _shifted(t: Target, off: Offset) -> Target | None:
    if not one_dimensional(t.base) and not t.view:
        return None  # a row of a 2-D array: not followed (its bytes, a view: `_cell_of`, casts)
    if t.view:
        off = (off[0], off[1], off[2] * t.view)  # through a view: in bytes
    return Target(t.base, (*t.offset, off), t.view, t.inner)


def _viewed(t: Target, size: int, rows: bool = False) -> Target | None:
    """`t` seen through a pointer to a type of `size` bytes: offsets from then on in bytes.
    A cast to the base's own element size changes nothing (`(global float *)` of a
    `const global float *`); one of a base whose element size is not known, or of a row of
    a 2-D array, is not followed. A cast of a whole multi-dimensional array (`(local float
    *)A` of `A[4][8][8]`) views its bytes in order, its own subscripts too (check.py)."""
    own = element_size(t.base)
    if own is None or not one_dimensional(t.base) and t.offset:
        return None
    if not t.view and size == own and one_dimensional(t.base) and not rows:
        return t
    offset = t.offset if t.view else tuple((ev, n, sign * own) for ev, n, sign in t.offset)
    return Target(t.base, offset, size)


def widened(t: Target, n: int) -> Target | None:
    """`t` read or written `n` elements at a time (`vload4(i, p)`: elements 4i..4i+3 of
    `p`): a view of `n` of its elements, offsets from then on in bytes."""
    own = t.view or element_size(t.base)
    return _viewed(t, n * own) if own else None


_SCALARS = {"char": 1, "uchar": 1, "unsigned char": 1, "signed char": 1, "bool": 1,
            "short": 2, "ushort": 2, "unsigned short": 2, "half": 2,
            "int": 4, "uint": 4, "unsigned int": 4, "unsigned": 4, "float": 4,
            "long": 8, "ulong": 8, "unsigned long": 8, "double": 8}
_QUALIFIERS = {"const", "volatile", "restrict", "__restrict", "global", "__global", "local", "__local",
               "constant", "__constant", "private", "__private", "generic", "__generic"}


def type_size(text: str) -> int | None:
    """Bytes of a scalar or vector type spelt `text` (`uchar`, `float4`); None for anything else."""
    words = [w for w in text.replace("*", " ").split() if w not in _QUALIFIERS]
    name = " ".join(words)
    if name in _SCALARS:
        return _SCALARS[name]
    for n in (16, 8, 4, 3, 2):
        if name.endswith(str(n)) and name[: -len(str(n))] in _SCALARS and " " not in name:
            return _SCALARS[name[: -len(str(n))]] * (4 if n == 3 else n)
    return None


def vector_width(v: VarInfo) -> int | None:
    """Components of one element of the array or pointer `v` where it is a vector (`float4
    v[16]`: 4; a `3`-vector is stored as 4), from its declaration's type; None for anything else."""
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    words = [w for w in _text(decl.child_by_field_name("type")).split() if w not in _QUALIFIERS] \
        if decl is not None else []
    name = words[0] if len(words) == 1 else ""
    for n in (16, 8, 4, 3, 2):
        if name.endswith(str(n)) and name[: -len(str(n))] in _SCALARS:
            return 4 if n == 3 else n
    return None


def view_size(descriptor: Node | None) -> int | None:
    """The pointee size of a cast's pointer type (`global uchar *`): one `*`, a sized type."""
    text = _text(descriptor)
    if text.count("*") != 1 or not text.rstrip().endswith("*"):
        return None
    return type_size(text)


def row_view_size(descriptor: Node | None, value_of: Callable[[Node], int | None]
                  ) -> tuple[int, tuple[int, ...]]:
    """(bytes of a row, (bytes of its element, its extents...)) of a cast to a pointer to
    arrays of a sized type (`local float (*)[8]`: 32, (4, 8); `(*)[2][N]`, N 4: 32, (4, 2, 4));
    `value_of` reads an extent (a literal or a macro); (0, ()) for anything else."""
    if descriptor is None:
        return 0, ()
    d = descriptor.child_by_field_name("declarator")
    named = descriptor.child_by_field_name("type")
    if named is not None and named.type == "type_identifier" and d is not None \
            and d.type == "abstract_pointer_declarator" and not d.named_child_count:
        return _typedef_rows(named, value_of)  # `(global block_t *)`, `typedef float block_t[4][4]`
    extents: list[int] = []
    while d is not None and d.type == "abstract_array_declarator":
        size = d.child_by_field_name("size")
        n = value_of(size) if size is not None else None
        if not isinstance(n, int) or n <= 0:
            return 0, ()
        extents.insert(0, n)
        d = d.child_by_field_name("declarator")
    if not extents or d is None or d.type != "abstract_parenthesized_declarator" or d.named_child_count != 1 \
            or d.named_children[0].type != "abstract_pointer_declarator" \
            or d.named_children[0].named_child_count:
        return 0, ()
    words = [_text(c) for c in descriptor.children if c.type not in ("abstract_array_declarator", "comment")]
    size = type_size(" ".join(words))
    if not size:
        return 0, ()
    return size * prod(extents), (size, *extents)


def struct_fields(name: Node) -> list[bytes] | None:
    """The field names, in order, of the struct a file-scope `typedef struct {...} name;` names
    (one name per declarator); None where it is no such typedef."""
    root = name
    while root.parent is not None:
        root = root.parent
    for n in root.named_children:
        d = n.child_by_field_name("declarator") if n.type == "type_definition" else None
        if d is None or d.type != "type_identifier" or d.text != name.text:
            continue
        spec = n.child_by_field_name("type")
        body = spec.child_by_field_name("body") if spec is not None and spec.type == "struct_specifier" else None
        if body is None:
            return None
        out: list[bytes] = []
        for f in body.named_children:
            if f.type != "field_declaration":
                continue
            for fd in f.children_by_field_name("declarator"):
                while fd is not None and fd.type != "field_identifier":
                    fd = fd.child_by_field_name("declarator")
                if fd is None or not fd.text:
                    return None
                out.append(fd.text)
        return out
    return None


def _typedef_rows(name: Node, value_of: Callable[[Node], int | None]) -> tuple[int, tuple[int, ...]]:
    """`row_view_size` of a pointer to a type named by a file-scope typedef of an array of a
    sized type (`typedef float block_t[4][4][4];`: 256, (4, 4, 4, 4)); (0, ()) for anything else.
    Only a cast to such a type reads the file's top level (rare: no cost to other files)."""
    root = name
    while root.parent is not None:
        root = root.parent
    for n in root.named_children:
        if n.type != "type_definition":
            continue
        d = n.child_by_field_name("declarator")
        extents: list[int] = []
        while d is not None and d.type == "array_declarator":
            size = d.child_by_field_name("size")
            e = value_of(size) if size is not None else None
            if not isinstance(e, int) or e <= 0:
                break
            extents.insert(0, e)
            d = d.child_by_field_name("declarator")
        if d is None or d.type != "type_identifier" or d.text != name.text:
            continue
        size = type_size(_text(n.child_by_field_name("type")))
        if not extents or not size:  # (every array declarator read: the name ended the loop)
            return 0, ()
        return size * prod(extents), (size, *extents)
    return 0, ()


def element_size(v: VarInfo) -> int | None:
    """Bytes of one element of the array or pointer `v`, from its declaration's type."""
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    return type_size(_text(decl.child_by_field_name("type"))) if decl is not None else None
