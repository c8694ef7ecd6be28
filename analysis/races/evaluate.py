"""Index and guard expressions as integers, for one work-item of a model work-group.

An `Env` fixes the work-item's local id, the work-group's id and size, the loop
counters being enumerated, and samples for uniform values nothing here can compute
(kernel scalar arguments, `get_num_groups`). `value` answers None for anything else:
loads, private variables (or fields of private structs) assigned more than once, floats.
Unknown stays unknown, with one exception (`guard`): a condition on loaded data is `LOAD`,
a test some input passes in any one work-item (the race check then lets only one side of a
race hang on one: two work-items passing it at once is what the data may rule out, as a
segment's first element is one); a work-item's datum tested for equality with one value
every work-item loads alike (`if (score[gid] == best[0])`, "do I hold the maximum?", the value
in `__local` memory) is `DATA`, a test some inputs (ties) pass in several work-items at once.

Macros that stand for arithmetic (`#define tid get_local_id(0)`, `#define IDX(d) ...`)
are read through their expansions (races/macros.py), and the integer built-ins `min`,
`max`, `clamp` and `abs` are computed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tree_sitter import Node

from cllint.analysis.races.private_tables import private_table
from cllint.analysis.uniformity.names import Names, VarInfo
from cllint.analysis.lazy_re import lazy

INT_TYPES = lazy(r"^(const\s+)?(unsigned\s+|signed\s+)?(char|short|int|long|uint|ushort|uchar|ulong|size_t|"
                       r"ptrdiff_t|intptr_t|uintptr_t|unsigned|signed)$")
_INT = lazy(r"^(-?)\s*(0[xX][0-9a-fA-F]+|\d+)[uUlL]*$")  # the grammar folds a sign into `-1`


class Env:
    lid: tuple[int, int, int]
    size: tuple[int, int, int]
    group: tuple[int, int, int]
    counters: dict[int, int]  # loop variable key -> value
    sample: Callable[[object], int]

    __match_args__ = ("lid", "size", "group", "counters", "sample")

    def __init__(
        self,
        lid: tuple[int, int, int],
        size: tuple[int, int, int],
        group: tuple[int, int, int],
        counters: dict[int, int] | None = None,
        sample: Callable[[object], int] = lambda symbol: 1_000_003,
    ) -> None:
        self.lid = lid
        self.size = size
        self.group = group
        self.counters = {} if counters is None else counters
        self.sample = sample

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"lid={self.lid!r}, " f"size={self.size!r}, "
                f"group={self.group!r}, " f"counters={self.counters!r}, " f"sample={self.sample!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.lid, self.size, self.group, self.counters, self.sample)
        theirs = (other.lid, other.size, other.group, other.counters, other.sample)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class _Data:
    """The value of a condition on loaded data: unknown, and possibly true in every work-item."""

    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


DATA: Any = _Data("DATA")
LOAD: Any = _Data("LOAD")  # within `guard`: a value loaded from memory, or computed from one
_LOADS = frozenset({"subscript_expression"})
_PURE = {"fmax", "fmin", "max", "min", "abs", "fabs", "clamp", "isnan", "isinf", "sqrt", "exp", "log",
         "convert_int", "convert_float", "as_int", "as_uint", "as_float"}


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
        # private scalars chosen by an if/else (races.choices.scalar_choices): key -> (condition,
        # value where it holds, value where it does not), read when first asked (`chooser`)
        self.choices: dict[int, tuple[Node, Node, Node]] | None = None
        self.chooser: Callable[[], dict[int, tuple[Node, Node, Node]]] | None = None
        self.expander: Any = None  # races.macros.Expander: macros read as their expansions
        self._foreign: Evaluator | None = None  # this evaluator, reading an expansion's tree
        self._at: int | None = None  # where the expansion being read is used
        self._data = False  # within `guard`: loads are DATA
        self._parent: Evaluator | None = None  # of an expansion's reader: the evaluator of the real tree
        # What `value` reads of a node besides its kind (operator, operands, callee), by node id,
        # read once: a node is evaluated for every work-item, counter value and round, and
        # `child_by_field_name` costs more than the arithmetic. Each entry holds its node, so
        # the tree (an expansion's too) stays alive and no other node takes its id. An
        # expansion's reader (`expanded`) shares the table.
        self._shapes: dict[int, tuple] = {}
        self._tables: dict[bytes, tuple[int | None, ...]] | None = None  # `_table`, read once
        self._private_tables: dict[int, tuple[int | None, ...] | None] = {}  # `_table`, per array
        # a helper's one returned integer at a call (races/calls.py `returned_value`): the
        # evaluator of the helper's frame and the expression it returns; None not followed
        self.helper_value: Callable[[Node, Evaluator], tuple[Evaluator, Node] | None] | None = None
        self.helper_depth = 0  # helpers this evaluator's frame is inside

    def guard(self, node: Node | None, env: Env) -> Any:
        """A condition's value; LOAD where it depends on loaded data, DATA for a datum tested
        against a value all work-items load alike."""
        self._data = True
        try:
            return self.value(node, env)
        finally:
            self._data = False

    def _common_load(self, node: Node | None, env: Env) -> bool:
        """`best[0]`, `vals[WG - 1]`: a load of `__local` memory (what the work-group
        computed: a reduction's result) whose index is the same in every work-item."""
        while node is not None and node.type == "parenthesized_expression" and node.named_children:
            node = node.named_children[-1]
        if node is None or node.type != "subscript_expression":
            return False
        base = node.child_by_field_name("argument")
        v = self.names.var(base) if base is not None else None
        if v is None or not _in_local_memory(v):
            return False  # an input: a key searched for, which the data may hold once
        index = node.child_by_field_name("index")
        here = self.value(index, env)
        other = self.value(index, Env((env.lid[0] + 1, env.lid[1] + 1, env.lid[2]), env.size, env.group,
                                      env.counters, env.sample))
        return isinstance(here, int) and here == other

    def expanded(self, node: Node, env: Env) -> int | None:
        """The value of a macro use (`tid`, `IDX(0)`): its expansion, read by name."""
        if self.expander is None:
            return None
        at = self._at if self._at is not None else node.start_byte
        tree = self.expander.expression(node, at)
        if tree is None:
            return None
        sub = self._foreign
        if sub is None:
            import copy  # (macro uses only: `copy` costs start-up ~1M instructions)

            from cllint.analysis.races.macros import ByName  # one-way: macros reads no evaluator
            sub = self._foreign = copy.copy(self)
            sub.names, sub._foreign, sub._busy = ByName(self.names), sub, set()  # type: ignore[assignment]
            sub._parent = self
        saved, sub._at, sub._data = sub._at, at, self._data
        try:
            return sub.value(tree, env)
        finally:
            sub._at = saved

    def expansion_reader(self, at: int) -> Evaluator:
        """An evaluator of the tree a macro use at `at` expands to (`AT(l, y, x)`'s
        `(l)[((y)) * 8 + ((x))]`): names read by name, as `expanded` reads them."""
        import copy

        from cllint.analysis.races.macros import ByName  # one-way: macros reads no evaluator
        sub = copy.copy(self)
        sub.names, sub._foreign, sub._busy = ByName(self.names), sub, set()  # type: ignore[assignment]
        sub._parent, sub._at = self, at
        return sub

    def value(self, node: Node | None, env: Env) -> Any:  # noqa: C901 - one case per node kind
        if node is None:
            return None
        t = node.type
        if t == "subscript_expression" and (table := self._table(node)) is not None:
            i = self.value(node.child_by_field_name("index"), env)
            return table[i] if isinstance(i, int) and 0 <= i < len(table) else None
        if self._data and (t in _LOADS or t == "pointer_expression" and self._shape(node)[0] == "*"):
            return LOAD
        if t == "number_literal":
            return self._shape(node)[0]
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
            integer, value, _ = self._shape(node)
            return self.value(value, env) if integer else None
        if t == "call_expression":
            return self.call(node, env)
        if t == "unary_expression":
            op, argument, _ = self._shape(node)
            v = self.value(argument, env)
            if v is None or v is DATA or v is LOAD:
                return v
            return {"-": -v, "+": v, "!": int(not v), "~": ~v}.get(op)
        if t == "conditional_expression":
            condition, consequence, alternative, _ = self._shape(node)
            c = self.value(condition, env)
            if c is None:
                return None
            if c is DATA or c is LOAD:
                a, b = (self.value(x, env) for x in (consequence, alternative))
                return None if a is None or b is None else a if a == b and isinstance(a, int) else c
            return self.value(consequence if c else alternative, env)
        if t == "binary_expression":
            return self.binary(node, env)
        return None

    def _table(self, node: Node) -> tuple[int | None, ...] | None:
        """The elements of a program-scope `__constant` (or `const`) array of integer literals
        (`constant int partner[4] = {1, 0, 3, 2};`) that `node` subscripts; None otherwise."""
        base = node.child_by_field_name("argument")
        if base is None or base.type != "identifier" or not base.text:
            return None
        v = self.names.var(base)
        if v is not None:  # a private table of constants, read once per array
            if v.key not in self._private_tables:
                self._private_tables[v.key] = private_table(v, self.names) if v.array else None
            return self._private_tables[v.key]
        tables = self._tables
        if tables is None:
            root = node
            while root.parent is not None:
                root = root.parent
            tables = self._tables = _constant_tables(root)
        return tables.get(base.text)

    def _shape(self, node: Node) -> tuple:
        """What `value` reads of `node`, by its kind (see `_shapes`); the node itself last."""
        got = self._shapes.get(node.id)
        if got is None:
            got = self._shapes[node.id] = _shape_of(node)
        return got

    def binary(self, node: Node, env: Env) -> int | None:
        op, left, right, _ = self._shape(node)
        a = self.value(left, env)
        if op in ("&&", "||"):
            if a is None or a is LOAD:
                return None
            if a is not DATA and op == "&&" and not a:
                return 0
            if a is not DATA and op == "||" and a:
                return 1
            b = self.value(right, env)
            if b is None or b is LOAD:
                return None
            if b is DATA:
                return DATA
            if a is DATA:  # DATA && 0 is 0, DATA || 1 is 1
                return DATA if bool(b) == (op == "&&") else int(bool(b))
            return int(bool(b))
        b = self.value(right, env)
        if a is None or b is None:
            return None
        if a is DATA or b is DATA:
            return None  # arithmetic on a test's outcome: not followed
        if a is LOAD or b is LOAD:
            if op in ("==", "!=") and (a is LOAD and self._common_load(right, env)
                                       or b is LOAD and self._common_load(left, env)):
                return DATA
            return LOAD
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
            c = self.constant(node)
            return c if c is not None else self.expanded(node, env)
        return (self._parent or self).var_value(v, env)

    def var_value(self, v: VarInfo, env: Env) -> int | None:
        if v.key in env.counters:
            return env.counters[v.key]
        if v.key in self.counters or v.pointer or v.array or v.shared:
            return None
        d = self.defs.get(v.key)
        if d is None and self.chooser is not None and v.param_index is None and self.choices is None:
            self.choices = self.chooser()  # (a variable given no single value: once per kernel)
        if d is None and self.choices and v.key in self.choices and v.key not in self._busy:
            cond, yes, no = self.choices[v.key]
            self._busy.add(v.key)
            try:
                c = self.value(cond, env)  # (`if (lid & 1) i = 0; else i = lid;`)
                return self.value(yes if c else no, env) if isinstance(c, int) and c is not DATA \
                    and c is not LOAD else None
            finally:
                self._busy.discard(v.key)
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
        if d is None and key is None:
            d = self._component(node)
            if d is not None:
                return self.value(d, env)
        if d is None or key in self._busy:
            return None
        self._busy.add(key)
        try:
            return self.value(d, env)
        finally:
            self._busy.discard(key)

    def _component(self, node: Node) -> Node | None:
        """The element of a vector literal a component reads (`p.y` of `int2 p = (int2)(l, l +
        1)`: `l + 1`; of `(int4)(l)`: `l`), where the vector is private and defined once by it."""
        arg, field = node.child_by_field_name("argument"), node.child_by_field_name("field")
        if arg is None or arg.type != "identifier" or field is None:
            return None
        v = self.names.var(arg)
        init = self.defs.get(v.key) if v is not None and not (v.pointer or v.array or v.shared) else None
        if init is None or init.type != "vector_literal":
            return None
        i = _component_index(_text(field))
        parts = [c for c in init.named_children if c.type not in ("type_descriptor", "comment")]
        width = _vector_width(_text(init.child_by_field_name("type") or next(
            (c for c in init.named_children if c.type == "type_descriptor"), None)))
        if i is None or width is None or i >= width:
            return None
        # one element is every component; as many as the width, each a scalar, are in order
        return parts[0] if len(parts) == 1 else parts[i] if len(parts) == width else None

    def call(self, node: Node, env: Env) -> int | None:
        fn, named, _ = self._shape(node)
        if fn == "get_local_linear_id" and not named:
            return env.lid[0] + env.size[0] * (env.lid[1] + env.size[1] * env.lid[2])
        if fn in _ARITH and len(named) == _ARITH[fn][0]:
            vals = [self.value(a, env) for a in named]
            if any(v is None for v in vals):
                return None
            if any(v is DATA for v in vals):
                return None
            if any(v is LOAD for v in vals):
                return LOAD
            return _ARITH[fn][1](*vals)
        if fn in _INDEX_ARITH and not self._data and len(named) == _INDEX_ARITH[fn][0]:
            # (in indices only: a guard through them is left unknown, as before; round 12 found
            # reading them in guards searched every guard of darktable's demosaic kernels)
            vals = [self.value(a, env) for a in named]
            return _INDEX_ARITH[fn][1](*vals) if all(isinstance(v, int) and v is not DATA and v is not LOAD
                                                     for v in vals) else None
        if self._data and fn.startswith(_ATOMIC_PREFIXES) and fn not in _ATOMIC_NO_VALUE:
            return LOAD  # the value an atomic returns is memory's (data_guards.py: its tests)
        if fn in _PURE and self._data:
            vals = [self.value(a, env) for a in named]
            return None if any(v is None or v is DATA for v in vals) or all(v is not LOAD for v in vals) else LOAD
        if fn not in _IDS and self.helper_value is not None:
            got = self.helper_value(node, self)
            if got is not None:
                return got[0].value(got[1], env)
        if len(named) != 1:
            return self.expanded(node, env)
        if fn not in _IDS:
            return self.expanded(node, env)
        d = self.value(named[0], env)
        if not isinstance(d, int) or not 0 <= d <= 2:
            return None
        if fn == "get_local_id":
            return env.lid[d]
        if fn in ("get_local_size", "get_enqueued_local_size"):
            return env.size[d]
        if fn == "get_group_id":
            return env.group[d]
        if fn == "get_global_id":
            return env.group[d] * env.size[d] + env.lid[d]
        if fn == "get_global_size":  # the work-groups' sizes added up: `S - 1 - gid` is a work-item
            return env.size[d] * env.sample(("get_num_groups", d))
        if fn in ("get_num_groups", "get_global_offset"):
            return env.sample((fn, d))
        return self.expanded(node, env)


def _shape_of(node: Node) -> tuple:
    """The parts of `node` that `Evaluator.value` reads, for the kinds it reads parts of;
    the node itself last (see `Evaluator._shapes`)."""
    t, f = node.type, node.child_by_field_name
    if t == "binary_expression":
        return _text(f("operator")), f("left"), f("right"), node
    if t == "call_expression":
        args = f("arguments")
        return _text(f("function")), tuple(a for a in (args.named_children if args else []) if a.type != "comment"), node
    if t == "unary_expression":
        return _text(f("operator")), f("argument"), node
    if t == "conditional_expression":
        return f("condition"), f("consequence"), f("alternative"), node
    if t == "cast_expression":
        return INT_TYPES.match(_text(f("type"))) is not None, f("value"), node
    if t == "pointer_expression":
        return _text(f("operator")), node
    if t == "number_literal":
        m = _INT.match(_text(node))
        if m is None:
            return None, node
        s = m.group(2)
        v = int(s, 16) if s[:2] in ("0x", "0X") else int(s, 8) if len(s) > 1 and s[0] == "0" else int(s)
        return -v if m.group(1) else v, node
    return (node,)


def _constant_tables(root: Node) -> dict[bytes, tuple[int | None, ...]]:
    """Program-scope arrays that cannot change (`constant`/`__constant` or `const`) whose
    initialiser lists integer literals, by name; an element that is anything else is None."""
    out: dict[bytes, tuple[int | None, ...]] = {}
    for decl in root.named_children:
        if decl.type != "declaration" or not decl.text or b"{" not in decl.text:
            continue
        if not any(q.type in ("type_qualifier", "address_space_qualifier")
                   and _text(q).lstrip("_") in ("constant", "const") for q in decl.children):
            continue
        for d in decl.children_by_field_name("declarator"):
            arr, init = d.child_by_field_name("declarator"), d.child_by_field_name("value")
            name = arr.child_by_field_name("declarator") if arr is not None and arr.type == "array_declarator" \
                else None
            if name is None or name.type != "identifier" or init is None or init.type != "initializer_list":
                continue
            items = [c for c in init.named_children if c.type != "comment"]
            out[name.text or b""] = tuple(_shape_of(c)[0] if c.type == "number_literal" else None for c in items)
    return out


def _in_local_memory(v: VarInfo) -> bool:
    """A `__local` array or a pointer to `__local` memory (its declaration says so)."""
    if v.spelt is not None:  # `LOCAL int *p`, `lptr p` (uniformity/spellings.py)
        return v.spelt == "local"
    decl = v.decl.parent
    while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
        decl = decl.parent
    return decl is not None and any(q.type in ("type_qualifier", "address_space_qualifier")
                                    and _text(q).lstrip("_") == "local" for q in decl.children)


_IDS = frozenset({"get_local_id", "get_local_size", "get_enqueued_local_size", "get_group_id", "get_global_id",
                  "get_num_groups", "get_global_size", "get_global_offset"})
# atomics whose call is an expression of the memory's value (6.15.12, 6.13.11); not those that
# return nothing or only store
_ATOMIC_PREFIXES = ("atomic_", "atom_")
_ATOMIC_NO_VALUE = frozenset({"atomic_init", "atomic_store", "atomic_store_explicit", "atomic_work_item_fence",
                              "atomic_flag_clear", "atomic_flag_clear_explicit"})
# 24-bit integer built-ins (6.15.3), exact where their operands fit, as indices' do
_INDEX_ARITH: dict[str, tuple[int, Any]] = {"mul24": (2, lambda x, y: x * y), "mad24": (3, lambda x, y, z: x * y + z)}
_ARITH: dict[str, tuple[int, Any]] = {
    "min": (2, min), "max": (2, max), "abs": (1, abs),
    "clamp": (3, lambda x, lo, hi: min(max(x, lo), hi)),
}


_LETTERS = {c: i for i, c in enumerate("xyzw")}


def _component_index(name: str) -> int | None:
    """Which component `.x`/`.s3` reads (one component only: a swizzle is no scalar)."""
    if name in _LETTERS:
        return _LETTERS[name]
    if len(name) == 2 and name[0] in "sS" and name[1] in "0123456789abcdefABCDEF":
        return int(name[1], 16)
    return None


def _vector_width(type_text: str) -> int | None:
    """Components of an integer vector type (`int2`, `uint4`); None for anything else."""
    for n in (16, 8, 4, 3, 2):
        base = type_text[: -len(str(n))]
        if type_text.endswith(str(n)) and base in ("char", "uchar", "short", "ushort", "int", "uint", "long", "ulong"):
            return n
    return None
