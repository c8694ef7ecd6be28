"""Comparisons that hold for all or none of a work-group because both sides are whole tiles
of it (issues 29 and 5): `if (idm < (M / WGD) * WGD)` with `idm = get_local_id(0) * MWID +
get_group_id(0) * WGD` in CLBlast's direct GEMM, `if (gid < (n / 16) * 16)` under
`reqd_work_group_size(16, 1, 1)`.

With the work-group size L fixed (the kernel's `reqd_work_group_size`; a helper's, when every
kernel of the file that reaches it requires the same), write the tested side as
E = c * lid_d + A and the bound as B, where A and B are uniform multiples of M (a group id
times a tile, `(n / T) * T`, `(n >> s) << s`, `n & ~(T - 1)`, constants): when 0 <= c * (L_d -
1) < M, every work-item's E lies in [A, A + M), a range no multiple of M splits, so `E < B`
(and `E >= B`, `B > E`, `B <= E`) is the same for the whole work-group. `<=` or a bound off a
multiple (`+ 1`) is not. `get_global_id(d)` is read as `get_group_id(d) * L_d + lid_d`
(no global offset, as hosts launch).

The structure is read here, before the dataflow: for each such comparison, the leaves it
takes as uniform (parameters, variables never assigned, argument-less calls); the dataflow
checks their tags where the comparison is evaluated (`whole_tiles`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from typing import Any

from tree_sitter import Node

from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.names import Names

Comparisons = Mapping[tuple[int, int], tuple[Node, ...]]  # (start, end) -> leaves to check
_SWAPPED = {"<": False, ">=": False, ">": True, "<=": True}  # `B > E` is `E < B`
_UNIFORM_QUERIES = frozenset({"get_group_id", "get_num_groups", "get_global_size", "get_local_size",
                              "get_enqueued_local_size", "get_global_offset", "get_work_dim"})
_NUMBER = re.compile(r"\A(0[xX][0-9a-fA-F]+|\d+)[uUlL]*\Z")
MAX_DEPTH = 12  # variable definitions and macros followed


class _Form:
    """E = sum(lid[d] * lid_d) + a uniform rest that is a multiple of `div` (0: the rest is 0);
    `exact`: the whole value where it is a constant; `is_id`: ("local" or "global", d) where
    it is that id itself; `sizes`: the sizes it equals (a kernel argument the host sets from the
    launch's size, `Bounds`)."""
    __slots__ = ("lid", "div", "exact", "is_id", "sizes")

    def __init__(self, lid: dict[int, int], div: int, exact: int | None = None,
                 is_id: tuple[str, int] | None = None, sizes: frozenset[tuple[str, int]] = frozenset()) -> None:
        self.lid = {d: c for d, c in lid.items() if c}
        self.div = abs(div)
        self.exact = exact
        self.is_id = is_id
        self.sizes = sizes

    def scaled(self, k: int) -> _Form:
        return _Form({d: c * k for d, c in self.lid.items()}, self.div * k,
                     None if self.exact is None else self.exact * k)


def work_group_size(head: bytes, constant: Callable[[str], int | None]) -> tuple[int, int, int] | None:
    """The size a function's head requires (`reqd_work_group_size(MDIMCD, NDIMCD, 1)`, its
    arguments read through the file's macros)."""
    m = re.search(rb"reqd_work_group_size\s*\(", head)
    if m is None:
        return None
    depth, args, cur = 0, [], b""
    for ch in head[m.end():m.end() + 400]:
        c = bytes([ch])
        if c == b")" and depth == 0:
            args.append(cur)
            break
        if c == b"," and depth == 0:
            args.append(cur)
            cur = b""
            continue
        depth += (c == b"(") - (c == b")")
        cur += c
    if len(args) != 3:
        return None
    got = [evaluate(a.decode("utf-8", "replace"), constant) for a in args]
    if any(g is None or g <= 0 for g in got):
        return None
    return (got[0], got[1], got[2])  # type: ignore[return-value]


def evaluate(text: str, constant: Callable[[str], int | None], depth: int = 0) -> int | None:
    """An integer constant expression in C (macro names through `constant`), or None."""
    text = re.sub(r"//[^\n]*|/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"\b(0[xX][0-9a-fA-F]+|\d+)[uUlL]+\b", r"\1", text.strip())
    import ast  # here: importing it is ~1 ms of every start-up, and most files ask nothing

    try:
        tree = ast.parse(text.replace("/", "//").replace("////", "//"), mode="eval")
    except (SyntaxError, ValueError):
        return None

    def ev(n: ast.AST) -> int | None:
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int) and not isinstance(n.value, bool):
            return n.value
        if isinstance(n, ast.Name):
            return constant(n.id) if depth < MAX_DEPTH else None
        if isinstance(n, ast.UnaryOp):
            v = ev(n.operand)
            if v is None:
                return None
            return -v if isinstance(n.op, ast.USub) else ~v if isinstance(n.op, ast.Invert) \
                else v if isinstance(n.op, ast.UAdd) else None
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if a is None or b is None:
                return None
            return _binary(type(n.op).__name__, a, b)
        return None

    return ev(tree)


def _binary(op: str, a: int, b: int) -> int | None:
    if op in ("FloorDiv", "Mod") and b == 0 or op in ("LShift", "RShift") and not 0 <= b < 64:
        return None
    q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1) if op in ("FloorDiv", "Mod") else 0
    return {"Add": lambda: a + b, "Sub": lambda: a - b, "Mult": lambda: a * b, "FloorDiv": lambda: q,
            "Mod": lambda: a - q * b, "LShift": lambda: a << b, "RShift": lambda: a >> b,
            "BitAnd": lambda: a & b, "BitOr": lambda: a | b, "BitXor": lambda: a ^ b}.get(op, lambda: None)()


def aligned_comparisons(func: Node, names: Names, size: tuple[int, int, int] | None,
                        constant: Callable[[Node], int | None],
                        bounds: Mapping[int, frozenset[tuple[str, int]]] | None = None
                        ) -> dict[tuple[int, int], tuple[Node, ...]]:
    """The comparisons of `func` that are whole tiles of a work-group of `size` on both sides
    (module docstring), or an id against the argument the host sets to its launch's size
    (`bounds`: argument index -> ("local" or "global", dimension) it equals; `lid < n` then
    holds in every work-item), with the leaves the dataflow must find uniform there."""
    body = func.child_by_field_name("body")
    if body is None or b"_id" not in (body.text or b""):
        return {}
    reader = _Reader(names, size, constant, body, bounds or {})
    out: dict[tuple[int, int], tuple[Node, ...]] = {}
    stack = [body]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "binary_expression":
            continue
        op = n.child_by_field_name("operator")
        swapped = _SWAPPED.get(op.type if op is not None else "")
        left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
        if swapped is None or left is None or right is None:
            continue
        e, b = (right, left) if swapped else (left, right)
        leaves: list[Node] = []
        fe, fb = reader.form(e, leaves), reader.form(b, leaves)
        if fe is not None and fb is not None and (_whole(fe, fb, size) or _within(fe, fb) or _within(fb, fe)):
            out[(n.start_byte, n.end_byte)] = tuple(leaves)
    return out


def _within(e: _Form, b: _Form) -> bool:
    """An id against the size it runs below (`get_local_id(0)` and the argument the host sets
    to the local size along 0): the same answer in every work-item, whatever the operator."""
    return e.is_id is not None and e.is_id in b.sizes


def _whole(e: _Form, b: _Form, size: tuple[int, int, int] | None) -> bool:
    if size is None or b.lid or len(e.lid) != 1:
        return False
    (d, c), = e.lid.items()
    m = math.gcd(e.div, b.div)
    return c > 0 and m > 0 and c * (size[d] - 1) < m


class _Reader:
    def __init__(self, names: Names, size: tuple[int, int, int] | None, constant: Callable[[Node], int | None],
                 body: Node, bounds: Mapping[int, frozenset[tuple[str, int]]]) -> None:
        self.names, self.size, self.constant, self.bounds = names, size, constant, bounds
        self.assigned = _assigned(body, names)

    def form(self, n: Node, leaves: list[Node], depth: int = 0) -> _Form | None:  # noqa: C901 - one case per kind
        if depth > MAX_DEPTH:
            return None
        t = n.type
        if t == "parenthesized_expression" and n.named_child_count == 1:
            return self.form(n.named_children[0], leaves, depth)
        if t == "cast_expression":
            v = n.child_by_field_name("value")
            return self.form(v, leaves, depth) if v is not None else None
        if t == "number_literal":
            m = _NUMBER.match((n.text or b"").decode())
            return _exact(int(m.group(1), 0)) if m else None
        if t == "identifier":
            return self.identifier(n, leaves, depth)
        if t == "call_expression":
            return self.call(n, leaves)
        if t == "unary_expression":
            op, arg = n.child_by_field_name("operator"), n.child_by_field_name("argument")
            f = self.form(arg, leaves, depth + 1) if arg is not None else None
            if f is None or op is None:
                return None
            if op.type == "-":
                return f.scaled(-1)
            if op.type == "~" and f.exact is not None:
                return _exact(~f.exact)
            return f if op.type == "+" else None
        if t == "binary_expression":
            op = n.child_by_field_name("operator")
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if op is None or left is None or right is None:
                return None
            a, b = self.form(left, leaves, depth + 1), self.form(right, leaves, depth + 1)
            return None if a is None or b is None else _combine(op.type, a, b)
        return None

    def identifier(self, n: Node, leaves: list[Node], depth: int) -> _Form | None:
        v = self.names.var(n)
        if v is None:
            c = self.constant(n)
            return None if c is None else _exact(c)
        if v.key in self.assigned or v.pointer or v.array or v.shared:
            return None
        if v.param_index is not None:
            leaves.append(n)
            return _Form({}, 1, sizes=self.bounds.get(v.param_index, frozenset()))
        init = _initializer(v.decl)
        return self.form(init, leaves, depth + 1) if init is not None else None

    def call(self, n: Node, leaves: list[Node]) -> _Form | None:
        fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
        name = (fn.text or b"").decode() if fn is not None and fn.type == "identifier" else ""
        named = [a for a in args.named_children if a.type != "comment"] if args is not None else []
        dim = (named[0].text or b"").decode() if len(named) == 1 else ""
        d = int(dim) if dim in ("0", "1", "2") else None
        if name == "get_local_id" and d is not None:
            return _Form({d: 1}, 0, is_id=("local", d))
        if name == "get_global_id" and d is not None:
            return _Form({d: 1}, self.size[d] if self.size else 1, is_id=("global", d))
        if name in ("get_local_size", "get_enqueued_local_size") and d is not None and self.size:
            return _exact(self.size[d])
        if name in _UNIFORM_QUERIES or name and not named and not name.startswith("get_"):
            leaves.append(n)  # (a helper without arguments: its result's tags are checked)
            return _Form({}, 1)
        return None


def _exact(v: int) -> _Form:
    return _Form({}, v, v)


def _combine(op: str, a: _Form, b: _Form) -> _Form | None:  # noqa: C901 - one case per operator
    both = a.exact is not None and b.exact is not None
    if both:
        v = _binary({"+": "Add", "-": "Sub", "*": "Mult", "/": "FloorDiv", "%": "Mod", "<<": "LShift",
                     ">>": "RShift", "&": "BitAnd", "|": "BitOr", "^": "BitXor"}.get(op, ""), a.exact, b.exact)  # type: ignore[arg-type]
        return None if v is None else _exact(v)
    if op in ("+", "-"):
        k = 1 if op == "+" else -1
        lid = dict(a.lid)
        for d, c in b.lid.items():
            lid[d] = lid.get(d, 0) + k * c
        return _Form(lid, math.gcd(a.div, b.div))
    if op == "*":
        if a.exact is not None:
            return b.scaled(a.exact)
        if b.exact is not None:
            return a.scaled(b.exact)
        return None if a.lid or b.lid else _Form({}, a.div * b.div)
    if a.lid or b.lid:
        return None
    if op == "<<" and b.exact is not None and 0 <= b.exact < 64:
        return a.scaled(1 << b.exact)
    if op == "&":
        mask = b.exact if b.exact is not None else a.exact
        return _Form({}, mask & -mask if mask else 0)
    if op in ("/", "%", ">>", "|", "^"):
        return _Form({}, 1)  # uniform, a multiple of nothing known
    return None


def _assigned(body: Node, names: Names) -> set[int]:
    """Variables assigned or updated anywhere but their declaration, or whose address is taken."""
    out: set[int] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        target = None
        if n.type == "assignment_expression":
            target = n.child_by_field_name("left")
        elif n.type == "update_expression":
            target = n.child_by_field_name("argument")
        elif n.type == "pointer_expression" and n.child_by_field_name("operator") is not None \
                and n.child_by_field_name("operator").type == "&":
            target = n.child_by_field_name("argument")
        while target is not None and target.type in ("parenthesized_expression", "subscript_expression",
                                                      "field_expression"):
            target = target.child_by_field_name("argument") if target.type != "parenthesized_expression" \
                else (target.named_children[0] if target.named_children else None)
        v = names.var(target) if target is not None and target.type == "identifier" else None
        if v is not None:
            out.add(v.key)
    return out


def _initializer(decl: Node) -> Node | None:
    p = decl.parent
    while p is not None and p.type not in ("init_declarator", "declaration", "parameter_declaration"):
        p = p.parent
    return p.child_by_field_name("value") if p is not None and p.type == "init_declarator" else None


def whole_tiles(ev: Any, leaves: tuple[Node, ...], st: dict[int, int]) -> bool:
    """Whether the leaves of an aligned comparison are uniform where it is evaluated: their
    tags read without side effects (no call site recorded, no guard added)."""
    for leaf in leaves:
        if leaf.type == "identifier":
            v = ev.names.var(leaf)
            if v is None or ev.read_var(v, st) & B.WG_DIVERGENT:
                return False
            continue
        fn = leaf.child_by_field_name("function")
        name = (fn.text or b"").decode() if fn is not None else ""
        if name in _UNIFORM_QUERIES:
            continue
        if ev.macros and leaf.start_byte in ev.macros:
            return False  # a macro standing for a collective
        # As the dataflow's `call` reads a call without arguments: a work-item function's
        # tags, a macro standing for an id's, a helper's result; unknown: uniform.
        src = B.source_tags(name)
        tags = src if src is not None else ev.values.get(leaf.start_byte, 0) if ev.values else 0
        summary = ev.summaries(name) if src is None else None
        if summary is not None:
            tags |= summary.ret
        if tags & B.WG_DIVERGENT:
            return False
    return True


def function_comparisons(fa: Any, name: str) -> dict[tuple[int, int], tuple[Node, ...]]:
    """`aligned_comparisons` for a function of a file's analysis (`summaries._FileAnalysis`):
    a kernel's required work-group size, or a helper's when every kernel of the file that
    reaches it requires the same one (none: nothing is aligned)."""
    func = fa.functions[name]
    body = func.child_by_field_name("body")
    if body is None or b"_id" not in (body.text or b""):
        return {}
    size = _required_size(fa, name)
    bounds: dict[int, frozenset[tuple[str, int]]] = {}
    for kernel, index, space, dim in getattr(fa, "launch_bounds", ()):
        if kernel == name and _is_kernel_head(func):
            bounds[index] = bounds.get(index, frozenset()) | {(space, dim)}
    if size is None and not bounds:
        return {}
    return aligned_comparisons(func, fa.names(name), size,
                               lambda n: macro_constant(fa.view, (n.text or b"").decode(), n.start_byte), bounds)


def _required_size(fa: Any, name: str) -> tuple[int, int, int] | None:
    memo = fa.__dict__.setdefault("_required_sizes", {})
    if name in memo:
        return memo[name]
    if "_callers" not in fa.__dict__:  # once per file: who calls whom, if any kernel requires a size
        root = fa.functions[name]
        while root.parent is not None:
            root = root.parent
        fa._callers = None
        if b"reqd_work_group_size" in (root.text or b""):
            fa._callers = {}
            for f, callees in fa.callees.items():
                for c in callees:
                    fa._callers.setdefault(c, set()).add(f)
    callers: dict[str, set[str]] | None = fa._callers
    if callers is None:
        memo[name] = None
        return None
    kernels, seen, todo = set(), {name}, [name]
    while todo:  # the kernels that reach `name`
        f = todo.pop()
        func = fa.functions[f] if f in fa.functions else None
        if func is not None and _is_kernel_head(func):
            kernels.add(f)
            continue
        for c in callers.get(f, ()):
            if c not in seen:
                seen.add(c)
                todo.append(c)
    sizes = set()
    for k in kernels:
        func = fa.functions[k]
        body = func.child_by_field_name("body")
        head = (func.text or b"")[: (body.start_byte if body is not None else func.end_byte) - func.start_byte]
        sizes.add(work_group_size(head, lambda n, at=func.start_byte: macro_constant(fa.view, n, at)))
    got = memo[name] = next(iter(sizes)) if len(sizes) == 1 else None
    return got


def _is_kernel_head(func: Node) -> bool:
    body = func.child_by_field_name("body")
    head = (func.text or b"")[: (body.start_byte if body is not None else func.end_byte) - func.start_byte]
    return re.search(rb"\b(?:__kernel|kernel)\b", head) is not None


def macro_constant(view: Any, name: str, at: int, depth: int = 0) -> int | None:
    """The integer an object-like macro stands for at `at` (the source's `#define`, else a
    `-D`), its body read through other macros."""
    if view is None or depth > MAX_DEPTH:
        return None
    try:  # the preprocessor view is someone else's code: never stop the rules over it
        m = view.macro_at(name, at)
        if m is None:
            m = getattr(getattr(view, "env", None), "macros", {}).get(name)
    except Exception:  # noqa: BLE001
        return None
    if m is None or getattr(m, "params", None) or getattr(m, "variadic", False):
        return None
    body = m if isinstance(m, str) else getattr(m, "body", None)
    if not isinstance(body, str):
        return None
    return evaluate(body, lambda n: macro_constant(view, n, at, depth + 1), depth)
