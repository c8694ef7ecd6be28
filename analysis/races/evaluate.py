"""Index and guard expressions as integers, for one work-item of a model work-group.

An `Env` fixes the work-item's local id, the work-group's id and size, the loop
counters being enumerated, and samples for uniform values nothing here can compute
(kernel scalar arguments, `get_num_groups`). `value` answers None for anything else:
loads, private variables (or fields of private structs) assigned more than once, floats.
Unknown stays unknown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from tree_sitter import Node

from cllint.analysis.uniformity.names import Names, VarInfo

INT_TYPES = re.compile(r"^(const\s+)?(unsigned\s+|signed\s+)?(char|short|int|long|uint|ushort|uchar|ulong|size_t|"
                       r"ptrdiff_t|intptr_t|uintptr_t|unsigned|signed)$")
_INT = re.compile(r"^(-?)\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")  # the grammar folds a sign into `-1`


@dataclass
class Env:
    lid: tuple[int, int, int]
    size: tuple[int, int, int]
    group: tuple[int, int, int]
    counters: dict[int, int] = field(default_factory=dict)  # loop variable key -> value
    sample: Callable[[object], int] = lambda symbol: 1_000_003


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def c_div(a: int, b: int) -> int | None:
    if b == 0:
        return None
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b >= 0) else -q


class Evaluator:
    """`defs`: the single defining expression of private variables assigned once (and of
    fields of private structs, by the uniformity analysis' field keys);
    `counters`: keys of loop counters (their values come from the `Env`);
    `constant`: object-like macros' integer values at a use."""

    def __init__(self, names: Names, defs: dict[int, Node], counters: set[int],
                 constant: Callable[[Node], int | None], uniform: Callable[[VarInfo], bool]) -> None:
        self.names, self.defs, self.counters = names, defs, counters
        self.constant, self.uniform = constant, uniform
        self._busy: set[int] = set()

    def value(self, node: Node | None, env: Env) -> int | None:  # noqa: C901 - one case per node kind
        if node is None:
            return None
        t = node.type
        if t == "number_literal":
            m = _INT.match(_text(node))
            if m is None:
                return None
            s = m.group(2)
            v = int(s, 16) if s[:2] in ("0x", "0X") else int(s, 8) if len(s) > 1 and s[0] == "0" else int(s)
            return -v if m.group(1) else v
        if t in ("true", "false"):
            return int(t == "true")
        if t == "parenthesized_expression":
            return self.value(node.named_children[-1] if node.named_children else None, env)
        if t == "comma_expression":
            return self.value(node.child_by_field_name("right"), env)
        if t == "identifier":
            return self.identifier(node, env)
        if t == "field_expression":
            return self.field(node, env)
        if t == "cast_expression":
            ty = node.child_by_field_name("type")
            return self.value(node.child_by_field_name("value"), env) if INT_TYPES.match(_text(ty)) else None
        if t == "call_expression":
            return self.call(node, env)
        if t == "unary_expression":
            v = self.value(node.child_by_field_name("argument"), env)
            op = _text(node.child_by_field_name("operator"))
            if v is None:
                return None
            return {"-": -v, "+": v, "!": int(not v), "~": ~v}.get(op)
        if t == "conditional_expression":
            c = self.value(node.child_by_field_name("condition"), env)
            if c is None:
                return None
            return self.value(node.child_by_field_name("consequence" if c else "alternative"), env)
        if t == "binary_expression":
            return self.binary(node, env)
        return None

    def binary(self, node: Node, env: Env) -> int | None:
        op = _text(node.child_by_field_name("operator"))
        a = self.value(node.child_by_field_name("left"), env)
        if op in ("&&", "||"):
            if a is None:
                return None
            if op == "&&" and not a:
                return 0
            if op == "||" and a:
                return 1
            b = self.value(node.child_by_field_name("right"), env)
            return None if b is None else int(bool(b))
        b = self.value(node.child_by_field_name("right"), env)
        if a is None or b is None:
            return None
        if op == "/":
            return c_div(a, b)
        if op == "%":
            q = c_div(a, b)
            return None if q is None else a - q * b
        if op in ("<<", ">>"):
            if not 0 <= b < 64:
                return None
            return a << b if op == "<<" else a >> b
        ops = {"+": a + b, "-": a - b, "*": a * b, "&": a & b, "|": a | b, "^": a ^ b,
               "<": int(a < b), ">": int(a > b), "<=": int(a <= b), ">=": int(a >= b),
               "==": int(a == b), "!=": int(a != b)}
        return ops.get(op)

    def identifier(self, node: Node, env: Env) -> int | None:
        v = self.names.var(node)
        if v is None:
            return self.constant(node)
        if v.key in env.counters:
            return env.counters[v.key]
        if v.key in self.counters or v.pointer or v.array or v.shared:
            return None
        d = self.defs.get(v.key)
        if d is not None and v.key not in self._busy:
            self._busy.add(v.key)
            try:
                got = self.value(d, env)
            finally:
                self._busy.discard(v.key)
            if got is not None:
                return got
        if v.param_index is not None and v.key not in self.defs and self.uniform(v):
            return env.sample(v.key)  # a kernel's scalar argument: the same for every work-item
        return None

    def field_key(self, node: Node) -> int | None:
        """The key of `c.a.b` on a private struct (None: not one, or never assigned by name)."""
        fp = self.names.field_path(node)
        return self.names.fields.get(fp[0].key, {}).get(fp[1]) if fp is not None else None

    def field(self, node: Node, env: Env) -> int | None:
        key = self.field_key(node)
        d = self.defs.get(key) if key is not None else None
        if d is None or key in self._busy:
            return None
        self._busy.add(key)
        try:
            return self.value(d, env)
        finally:
            self._busy.discard(key)

    def call(self, node: Node, env: Env) -> int | None:
        fn = _text(node.child_by_field_name("function"))
        args = node.child_by_field_name("arguments")
        named = [a for a in (args.named_children if args else []) if a.type != "comment"]
        if fn == "get_local_linear_id" and not named:
            return env.lid[0] + env.size[0] * (env.lid[1] + env.size[1] * env.lid[2])
        if len(named) != 1:
            return None
        d = self.value(named[0], env)
        if d is None or not 0 <= d <= 2:
            return None
        if fn == "get_local_id":
            return env.lid[d]
        if fn in ("get_local_size", "get_enqueued_local_size"):
            return env.size[d]
        if fn == "get_group_id":
            return env.group[d]
        if fn == "get_global_id":
            return env.group[d] * env.size[d] + env.lid[d]
        if fn in ("get_num_groups", "get_global_size", "get_global_offset"):
            return env.sample((fn, d))
        return None
