"""What a function's pointers point into, for the race search: the kernel's `__local`
arrays and shared pointer arguments, pointers derived from them (`tile + lid * W`,
`&tile[lid]`), and, inside a helper, its pointer parameters bound to what the call passes.

A helper's body is read once per call site with its parameters substituted (the summary
of which parameters it reads or writes at which index, applied where it is called).
Anything not followed (a cast, a pointer assigned more than once, a 2-D array's row)
has no target, and the accesses through it stay out of the check.
"""

from __future__ import annotations


from tree_sitter import Node

from cllint.analysis.races.evaluate import Env, Evaluator
from cllint.analysis.uniformity.names import Names, VarInfo

MAX_DEPTH = 8  # pointer definitions followed, one through another

# (evaluator of the frame that wrote it, expression, +1 or -1): added to the first index
Offset = tuple[Evaluator, Node, int]


class Target:
    __slots__ = ("base", "offset")
    base: VarInfo  # the kernel's __local array or shared pointer argument
    offset: tuple[Offset, ...]

    __match_args__ = ("base", "offset")

    def __init__(self, base: VarInfo, offset: tuple[Offset, ...] = ()) -> None:
        self.base = base
        self.offset = offset

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(base={self.base!r}, offset={self.offset!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.base, self.offset) == (other.base, other.offset)

    def __hash__(self) -> int:
        return hash((self.base, self.offset))


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

    __match_args__ = ("names", "ev", "defs", "moved", "kernel", "bound")

    def __init__(
        self,
        names: Names,
        ev: Evaluator,
        defs: dict[int, Node],
        moved: set[int],
        kernel: bool,
        bound: dict[int, Target] | None = None,
    ) -> None:
        self.names = names
        self.ev = ev
        self.defs = defs
        self.moved = moved
        self.kernel = kernel
        self.bound = {} if bound is None else bound

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"names={self.names!r}, " f"ev={self.ev!r}, "
                f"defs={self.defs!r}, " f"moved={self.moved!r}, " f"kernel={self.kernel!r}, "
                f"bound={self.bound!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.names, self.ev, self.defs, self.moved, self.kernel, self.bound)
        theirs = (other.names, other.ev, other.defs, other.moved, other.kernel, other.bound)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable

    def target(self, v: VarInfo, depth: int = 0) -> Target | None:
        """What the pointer or array `v` points into, if followed."""
        if self.kernel and v.array and v.shared and not v.pointer:
            return Target(v)  # a __local array
        if self.kernel and v.pointer and v.pointee_shared and not v.array and v.param_index is not None \
                and v.key not in self.moved:
            return Target(v)  # a kernel's pointer argument, never moved
        if v.param_index is not None:
            return self.bound.get(v.key)
        if v.pointer and not v.array and v.key not in self.moved and depth < MAX_DEPTH:
            d = self.defs.get(v.key)  # a private pointer defined once, by its initialiser
            return self.target_of(d, depth + 1) if d is not None else None
        return None

    def scalar_of(self, ident: Node) -> Target | None:
        """A kernel's `__local` scalar (`__local int base;`) named by `ident`: one element."""
        v = self.names.var(ident) if self.kernel else None
        if v is None or not v.shared or v.pointer or v.array or v.param_index is not None:
            return None
        return Target(v)

    def targets_of(self, expr: Node | None, depth: int = 0) -> list[tuple[Target, tuple]]:
        """Each target `expr` may point into, with the conditions ((node, holds), ...) under
        which it does: a pointer chosen by `c ? a : b` (or defined once by one) is `a` where
        `c` holds and `b` where it does not; anything else is `target_of`."""
        while expr is not None and expr.type == "parenthesized_expression" and expr.named_child_count == 1:
            expr = expr.named_children[0]
        if expr is None or depth > MAX_DEPTH:
            return []
        if expr.type == "identifier":
            v = self.names.var(expr)
            d = self.defs.get(v.key) if v is not None and v.pointer and not v.array and v.key not in self.moved \
                and v.param_index is None else None
            if d is not None and _choice(d) is not None:
                return self.targets_of(d, depth + 1)
        c = _choice(expr)
        if c is not None:
            cond, a, b = c
            left, right = self.targets_of(a, depth + 1), self.targets_of(b, depth + 1)
            if not left or not right:
                return []  # one side not followed: which work-items use the other is unknown
            return [(t, ((cond, True), *w)) for t, w in left] + [(t, ((cond, False), *w)) for t, w in right]
        t = self.target_of(expr, depth)
        return [(t, ())] if t is not None else []

    def target_of(self, expr: Node | None, depth: int = 0) -> Target | None:
        """The target of a pointer expression: `p`, `p + e`, `e + p`, `p - e`, `&p[e]`."""
        while expr is not None and expr.type == "parenthesized_expression" and expr.named_child_count == 1:
            expr = expr.named_children[0]
        if expr is None or depth > MAX_DEPTH:
            return None
        if expr.type == "identifier":
            v = self.names.var(expr)
            return self.target(v, depth) if v is not None else None
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
        if expr.type == "pointer_expression" and _text(expr.child_by_field_name("operator")) == "&":
            sub = expr.child_by_field_name("argument")
            while sub is not None and sub.type == "parenthesized_expression" and sub.named_child_count == 1:
                sub = sub.named_children[0]
            if sub is not None and sub.type == "identifier":
                return self.scalar_of(sub)  # `&base` of a __local scalar
            if sub is None or sub.type != "subscript_expression":
                return None
            t = self.target_of(sub.child_by_field_name("argument"), depth + 1)
            index = sub.child_by_field_name("index")
            return _shifted(t, (self.ev, index, 1)) if t is not None and index is not None else None
        return None

    def _integer(self, expr: Node) -> bool:
        """Not itself a pointer (the other operand of pointer arithmetic)."""
        return self.target_of(expr, MAX_DEPTH) is None and not (
            expr.type == "identifier" and (v := self.names.var(expr)) is not None and (v.pointer or v.array))


def _choice(expr: Node) -> tuple[Node, Node, Node] | None:
    """`c ? a : b` (parentheses allowed): (c, a, b)."""
    while expr.type == "parenthesized_expression" and expr.named_child_count == 1:
        expr = expr.named_children[0]
    if expr.type != "conditional_expression":
        return None
    c, a, b = (expr.child_by_field_name(f) for f in ("condition", "consequence", "alternative"))
    return (c, a, b) if c is not None and a is not None and b is not None else None


def _shifted(t: Target, off: Offset) -> Target | None:
    if not one_dimensional(t.base):
        return None  # a row of a 2-D array: not followed
    return Target(t.base, (*t.offset, off))
