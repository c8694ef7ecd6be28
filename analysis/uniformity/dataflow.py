"""Which values and branches of one function may differ between work-items.

A forward may-analysis over the CFG. A value's tags (bits from `builtins`) say why it
may vary: per work-item, per sub-group lane, per sub-group, or per parameter of the
function (so one analysis serves as the function's summary). Besides data flow through
assignments, loads and calls, a variable assigned between a divergent branch and the
branch's immediate post-dominator is tagged with the branch condition's tags at that
post-dominator: work-items arrive there having taken different paths.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Mapping

from tree_sitter import Node

from cllint.analysis.enqueued_blocks import enqueued_block
from cllint.analysis.lazy_re import lazy
from cllint.analysis.syntax import spelled_name, walk
from cllint.analysis.uniformity import builtins as B
from cllint.analysis.uniformity.cfg import CFG, control_dependence, postdominators, region
from cllint.analysis.uniformity.macros import MacroSync
from cllint.analysis.uniformity.names import COMPONENT, Names, VarInfo, root_var

RET = -1  # pseudo-variable: the function's return value


def out_key(i: int) -> int:
    """Pseudo-variable: what the function writes through private pointer parameter i."""
    return -10 - i


class CalleeSummary:
    __slots__ = ("ret", "out")
    ret: int
    out: tuple[tuple[int, int], ...]  # (parameter index, tags written through it)

    __match_args__ = ("ret", "out")

    def __init__(self, ret: int = 0, out: tuple[tuple[int, int], ...] = ()) -> None:
        self.ret = ret
        self.out = out

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(ret={self.ret!r}, out={self.out!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.ret, self.out) == (other.ret, other.out)

    def __hash__(self) -> int:
        return hash((self.ret, self.out))


class Origin:
    kind: str  # 'expr' (assigned from node), 'merge' (assigned under branch node), 'store'
    node: Node | None
    branch: int

    __match_args__ = ("kind", "node", "branch")

    def __init__(self, kind: str, node: Node | None, branch: int = -1) -> None:
        self.kind = kind
        self.node = node
        self.branch = branch

    def __repr__(self) -> str:
        return f"{type(self).__qualname__}(kind={self.kind!r}, node={self.node!r}, branch={self.branch!r})"

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return (self.kind, self.node, self.branch) == (other.kind, other.node, other.branch)

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class CallSite:
    name: str  # the callee; for a macro use, the built-in its expansion calls
    node: Node  # the call, or the macro's name where it is used without one
    cfg_node: int
    args: list[int]
    macro: str  # the macro whose expansion makes the call
    args_known: bool  # `args` are the callee's (not those of a macro standing for it)
    # Tags of the operands that decide whether the call is evaluated at all: the condition
    # of a `?:` it is an arm of, the left of a `&&`/`||` it is right of; and the first such
    # operand that varies.
    guard: int
    guard_node: Node | None

    __match_args__ = ("name", "node", "cfg_node", "args", "macro", "args_known", "guard", "guard_node")

    def __init__(
        self,
        name: str,
        node: Node,
        cfg_node: int,
        args: list[int] | None = None,
        macro: str = "",
        args_known: bool = True,
        guard: int = 0,
        guard_node: Node | None = None,
    ) -> None:
        self.name = name
        self.node = node
        self.cfg_node = cfg_node
        self.args = [] if args is None else args
        self.macro = macro
        self.args_known = args_known
        self.guard = guard
        self.guard_node = guard_node

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"name={self.name!r}, " f"node={self.node!r}, "
                f"cfg_node={self.cfg_node!r}, " f"args={self.args!r}, " f"macro={self.macro!r}, "
                f"args_known={self.args_known!r}, " f"guard={self.guard!r}, "
                f"guard_node={self.guard_node!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.name, self.node, self.cfg_node, self.args, self.macro, self.args_known, self.guard,
                self.guard_node)
        theirs = (other.name, other.node, other.cfg_node, other.args, other.macro, other.args_known,
                  other.guard, other.guard_node)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


class Facts:
    cfg: CFG
    ipdom: list[int]
    deps: list[set[int]]
    names: Names
    branch_tags: dict[int, int]
    in_states: list[dict[int, int]]
    origins: dict[int, Origin]
    calls: list[CallSite]
    ret: int
    out: dict[int, int]
    values: Mapping[int, int]  # id macro uses, see _Eval

    __match_args__ = ("cfg", "ipdom", "deps", "names", "branch_tags", "in_states", "origins", "calls", "ret",
                      "out", "values")

    def __init__(
        self,
        cfg: CFG,
        ipdom: list[int],
        deps: list[set[int]],
        names: Names,
        branch_tags: dict[int, int],
        in_states: list[dict[int, int]],
        origins: dict[int, Origin],
        calls: list[CallSite],
        ret: int,
        out: dict[int, int],
        values: Mapping[int, int] | None = None,
    ) -> None:
        self.cfg = cfg
        self.ipdom = ipdom
        self.deps = deps
        self.names = names
        self.branch_tags = branch_tags
        self.in_states = in_states
        self.origins = origins
        self.calls = calls
        self.ret = ret
        self.out = out
        self.values = {} if values is None else values

    def __repr__(self) -> str:
        return (f"{type(self).__qualname__}(" f"cfg={self.cfg!r}, " f"ipdom={self.ipdom!r}, "
                f"deps={self.deps!r}, " f"names={self.names!r}, " f"branch_tags={self.branch_tags!r}, "
                f"in_states={self.in_states!r}, " f"origins={self.origins!r}, " f"calls={self.calls!r}, "
                f"ret={self.ret!r}, " f"out={self.out!r}, " f"values={self.values!r})")

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        mine = (self.cfg, self.ipdom, self.deps, self.names, self.branch_tags, self.in_states, self.origins,
                self.calls, self.ret, self.out, self.values)
        theirs = (other.cfg, other.ipdom, other.deps, other.names, other.branch_tags, other.in_states,
                  other.origins, other.calls, other.ret, other.out, other.values)
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]  # mutable with __eq__: unhashable


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def callee_name(call: Node) -> str | None:
    fn = call.child_by_field_name("function")
    if fn is not None and fn.type == "call_expression":  # `FUNC(tile)(t, lid)`: a macro-made name
        inner = fn.child_by_field_name("function")
        return spelled_name(fn) if inner is not None and inner.type == "identifier" else None
    return _text(fn) if fn is not None and fn.type == "identifier" else None


def deciding(cond: Node | None) -> Node | None:
    """The part of a condition whose value is tested: the last operand of a comma
    expression, parentheses and all (`(INV(x), i < n)` -> `i < n`)."""
    while cond is not None:
        if cond.type == "comma_expression":
            cond = cond.child_by_field_name("right")
        elif cond.type == "parenthesized_expression" and cond.named_child_count == 1 \
                and cond.named_children[0].type == "comma_expression":
            cond = cond.named_children[0]
        else:
            return cond
    return cond


def subst(tags: int, args: list[int]) -> int:
    out = tags & B.NONPARAM
    for i in B.param_indices(tags):
        if i < len(args):
            out |= args[i]
    return out


class _Eval:
    def __init__(self, names: Names, summaries: Callable[[str], CalleeSummary | None],
                 origins: dict[int, Origin], calls: dict[int, CallSite],
                 flat_dims: frozenset[int] = frozenset(),
                 macros: Mapping[int, MacroSync] | None = None,
                 values: Mapping[int, int] | None = None,
                 aligned: Mapping[tuple[int, int], tuple[Node, ...]] | None = None) -> None:
        self.flat_dims = flat_dims
        self.aligned = aligned or {}  # comparisons of whole tiles: uniform where their leaves are
        self.values = values or {}  # uses of macros standing for work-item ids: their tags
        self.macros = macros or {}  # macro uses standing for collectives, by start byte
        self.names = names
        self.summaries = summaries
        self.origins = origins
        self.calls = calls
        self.cfg_node = -1
        self.guards: list[tuple[int, Node]] = []  # enclosing `?:` conditions, `&&`/`||` left operands

    # -- stores ---------------------------------------------------------------
    def targets(self, lhs: Node) -> tuple[list[int], bool]:
        """Variables a store to `lhs` may change, and whether it replaces their value."""
        while lhs.type == "parenthesized_expression" and lhs.named_children:
            lhs = lhs.named_children[0]
        if lhs.type == "identifier":
            v = self.names.var(lhs)
            if v is None or v.shared:
                return [], False
            if v.array:
                return [v.key], False
            return [v.key], True
        fp = self.names.field_path(lhs) if lhs.type == "field_expression" else None
        if fp is not None:
            return [self.names.field_key(*fp)], True
        v = root_var(self.names, lhs)
        if v is None or v.shared:
            return [], False
        through_pointer = self._through_pointer(lhs)
        if v.pointer and through_pointer:
            if v.pointee_shared:
                return [], False  # memory the work-group shares: loads check their address
            keys = list(v.aliases)
            if v.param_index is not None:
                keys.append(out_key(v.param_index))
            return keys, False
        return [v.key], False  # element or field of private storage

    @staticmethod
    def _through_pointer(lhs: Node) -> bool:
        node: Node | None = lhs
        while node is not None and node.type != "identifier":
            if node.type in ("subscript_expression", "pointer_expression"):
                return True
            if node.type == "field_expression":
                op = node.child_by_field_name("operator")
                if op is not None and _text(op) == "->":
                    return True
            node = node.child_by_field_name("argument") or (
                node.named_children[0] if node.named_children else None)
        return False

    def store(self, st: dict[int, int], lhs: Node, tags: int, origin: Node) -> None:
        keys, strong = self.targets(lhs)
        if strong:
            self._clear_fields_under(st, lhs)
        for k in keys:
            new = tags if strong else st.get(k, 0) | tags
            if new:
                st[k] = new
            else:
                st.pop(k, None)
            if new & B.WG_DIVERGENT and k not in self.origins:
                self.origins[k] = Origin("expr", origin)

    def _clear_fields_under(self, st: dict[int, int], lhs: Node) -> None:
        """A whole value stored to `c` or `c.a` replaces what `c.a.b` held."""
        while lhs.type == "parenthesized_expression" and lhs.named_children:
            lhs = lhs.named_children[0]
        if lhs.type == "identifier":
            v, prefix = self.names.var(lhs), ""
        else:
            fp = self.names.field_path(lhs) if lhs.type == "field_expression" else None
            if fp is None:
                return
            v, prefix = fp[0], fp[1] + "."
        table = self.names.fields.get(v.key) if v is not None else None
        for path, k in (table or {}).items():
            if path.startswith(prefix):
                st.pop(k, None)

    def read_var(self, v: VarInfo, st: dict[int, int], path: str | None = None) -> int:
        """What a read of `v` (or of its field `path`) sees: the whole variable's tags and
        those of the fields it overlaps."""
        tags = st.get(v.key, 0)
        for k in self.names.overlapping(v, path):
            tags |= st.get(k, 0)
        return tags

    def copy_struct(self, st: dict[int, int], dst: VarInfo, src: Node) -> bool:
        """`d = s` / `T d = s` between private structs: field by field."""
        u = self.names.var(src) if src.type == "identifier" else None
        if u is None or u is dst or u.shared or u.pointer or u.array or dst.pointer or dst.array \
                or not self.names.fields.get(u.key):
            return False
        for k in self.names.overlapping(dst, None):
            st.pop(k, None)
        whole = st.get(u.key, 0)
        if whole:
            st[dst.key] = whole
        else:
            st.pop(dst.key, None)
        for path, k in list(self.names.fields[u.key].items()):
            if st.get(k):
                st[self.names.field_key(dst, path)] = st[k]
        if self.read_var(u, st) & B.WG_DIVERGENT and dst.key not in self.origins:
            self.origins[dst.key] = Origin("expr", src)
        return True

    def vector_fields(self, st: dict[int, int], v: VarInfo, value: Node) -> bool:
        """`int2 p = (int2)(get_group_id(0), get_local_id(0))`: a vector literal with one
        scalar per component gives each component its element's tags (read back by `p.x`,
        `p.s1`: Names.overlapping). A splat or a literal of vectors counts for the whole."""
        if value.type != "vector_literal" or v.pointer or v.array:
            return False
        elements = [e for e in value.children_by_field_name("element") if e.type != "comment"]
        kind = value.child_by_field_name("type")
        width = _WIDTH.search(_text(kind)) if kind is not None else None
        if width is None or int(width.group(1)) != len(elements) or len(elements) < 2:
            return False
        for k in self.names.overlapping(v, None):
            st.pop(k, None)
        st.pop(v.key, None)
        for i, element in enumerate(elements):
            self._set_field(st, v, f"{COMPONENT}{i}", self.expr(element, st), element)
        return True

    def _set_field(self, st: dict[int, int], v: VarInfo, path: str, tags: int, origin: Node) -> None:
        """Field `path` of `v` holds `tags` (an absent key holds none), with where it came from."""
        if tags:
            k = self.names.field_key(v, path)
            st[k] = tags
            if tags & B.WG_DIVERGENT and k not in self.origins:
                self.origins[k] = Origin("expr", origin)

    def init_fields(self, st: dict[int, int], v: VarInfo, init: Node) -> bool:
        """`T c = { .n = n, .lid = get_local_id(0) }`: designated fields get their own tags;
        positional ones, whose field is not known here, count for the whole variable."""
        pairs = [c for c in init.named_children if c.type == "initializer_pair"]
        if not pairs or v.pointer or v.array:
            return False
        for k in self.names.overlapping(v, None):
            st.pop(k, None)
        whole = 0
        for c in init.named_children:
            if c.type == "comment":
                continue
            designator = c.child_by_field_name("designator") if c.type == "initializer_pair" else None
            field_name = designator.named_children[0] if designator is not None and designator.type == "field_designator" \
                and designator.named_child_count == 1 else None
            if c.type == "initializer_pair" and len(c.children_by_field_name("designator")) == 1 and field_name is not None:
                value = c.child_by_field_name("value")
                self._set_field(st, v, _text(field_name), self.expr(value, st), value)
            else:
                whole |= self.expr(c, st)
        if whole:
            st[v.key] = whole
            if whole & B.WG_DIVERGENT and v.key not in self.origins:
                self.origins[v.key] = Origin("expr", init)
        else:
            st.pop(v.key, None)
        return True

    # -- expressions ----------------------------------------------------------
    def expr(self, node: Node | None, st: dict[int, int]) -> int:
        if node is None:
            return 0
        t = node.type
        if t == "identifier":
            if self.macros and node.start_byte in self.macros:
                return self.macro_use(node, self.macros[node.start_byte])
            if self.values and node.start_byte in self.values:
                return self.values[node.start_byte]
            v = self.names.var(node)
            return self.read_var(v, st) if v is not None else 0
        if t == "field_expression":
            fp = self.names.field_path(node)
            if fp is not None:
                return self.read_var(fp[0], st, fp[1])
        if t in ("number_literal", "string_literal", "char_literal", "true", "false", "null",
                 "sizeof_expression", "alignof_expression", "comment", "concatenated_string"):
            return 0
        if t == "call_expression":
            return self.call(node, st)
        if t == "block_literal" and enqueued_block(node):
            return 0  # a child launch's body: run by its own work-items (enqueued_blocks.py)
        if t == "conditional_expression" or t == "binary_expression" and _text(
                node.child_by_field_name("operator")) in ("&&", "||"):
            return self.short_circuit(node, st)
        if t == "comma_expression":
            # `a, b` is worth `b`: `a` runs for its effects (stores) only, so it never
            # decides a branch (`for (i = 0; INV(lid), i < n; ++i)`).
            self.expr(node.child_by_field_name("left"), st)
            return self.expr(node.child_by_field_name("right"), st)
        if t == "assignment_expression":
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            op = node.child_by_field_name("operator")
            tags = self.expr(right, st)
            if left is not None:
                tags |= self._address_tags(left, st)
                plain = op is not None and _text(op) == "="
                if not plain:
                    tags |= self.expr(left, st)
                dst = self.names.var(left) if plain and left.type == "identifier" else None
                if dst is None or dst.shared or right is None or not (
                        self.copy_struct(st, dst, right) or self.vector_fields(st, dst, right)):
                    self.store(st, left, tags, right or node)
            return tags
        if t == "update_expression":
            arg = node.child_by_field_name("argument")
            tags = self.expr(arg, st)
            if arg is not None:
                self.store(st, arg, tags, node)
            return tags
        if t == "init_declarator":  # handled by decl()
            return 0
        tags = 0
        for child in node.named_children:
            tags |= self.expr(child, st)
        if self.aligned and t == "binary_expression" and (node.start_byte, node.end_byte) in self.aligned:
            from cllint.analysis.uniformity.aligned import whole_tiles  # (imported by summaries' comparisons)

            if whole_tiles(self, self.aligned[(node.start_byte, node.end_byte)], st):
                tags &= ~B.WG_DIVERGENT  # all or none of the work-group (aligned.py)
        return tags

    def _address_tags(self, lhs: Node, st: dict[int, int]) -> int:
        """Index expressions of a store's address: `a[i] = 0` makes private `a` vary if `i` does."""
        tags = 0
        node: Node | None = lhs
        while node is not None and node.type != "identifier":
            if node.type == "subscript_expression":
                tags |= self.expr(node.child_by_field_name("index"), st)
            node = node.child_by_field_name("argument") or (
                node.named_children[0] if node.named_children else None)
        v = root_var(self.names, lhs)
        if v is not None and v.pointer and not lhs.type == "identifier":
            tags |= st.get(v.key, 0)
        return tags

    def short_circuit(self, node: Node, st: dict[int, int]) -> int:
        """`c ? a : b`, `l && r`, `l || r`: what is right of the deciding operand runs in
        only the work-items it selects, like the body of an `if`."""
        if node.type == "conditional_expression":
            first = node.child_by_field_name("condition")
            rest = [node.child_by_field_name("consequence"), node.child_by_field_name("alternative")]
        else:
            first, rest = node.child_by_field_name("left"), [node.child_by_field_name("right")]
        tags = self.expr(first, st)
        if first is not None:
            self.guards.append((tags, first))
        try:
            for r in rest:
                tags |= self.expr(r, st)
        finally:
            if first is not None:
                self.guards.pop()
        return tags

    def guard(self, site: CallSite) -> None:
        for tags, node in self.guards:
            site.guard |= tags
            if tags & B.WG_DIVERGENT and site.guard_node is None:
                site.guard_node = node

    def macro_use(self, node: Node, macro: MacroSync) -> int:
        """A use of a macro standing for a collective (`LOCAL_BARRIER;`, `SYNC()`): a call
        site whose arguments are unknown. Its value is not read (a statement)."""
        if node.start_byte not in self.calls:
            self.calls[node.start_byte] = CallSite(macro.call, node, self.cfg_node, [], macro.macro, False)
        if self.guards:
            self.guard(self.calls[node.start_byte])
        return 0

    def call(self, node: Node, st: dict[int, int]) -> int:
        name = callee_name(node)
        args_node = node.child_by_field_name("arguments")
        args = [a for a in (args_node.named_children if args_node else []) if a.type != "comment"]
        arg_tags = [self.expr(a, st) for a in args]
        if name is None:
            return self.expr(node.child_by_field_name("function"), st) | _or(arg_tags)
        macro = self.macros.get(node.start_byte) if self.macros else None
        if macro is not None and not macro.alias:
            self.macro_use(node, macro)
            return _or(arg_tags)  # what the expansion computes is unknown: follow the arguments
        site = self.calls.get(node.start_byte)
        if site is None:
            site = self.calls[node.start_byte] = CallSite(macro.call if macro else name, node, self.cfg_node,
                                                          [0] * len(args), macro.macro if macro else "")
        name = site.name
        site.args = [a | b for a, b in zip(site.args, arg_tags)] + arg_tags[len(site.args):]
        if self.guards:
            self.guard(site)
        src = B.source_tags(name)
        if src is not None:
            if name == "get_global_id" and args and _text(args[0]) in {str(d) for d in self.flat_dims}:
                return 0  # a dimension the work-group is one item wide in
            return src
        if name in B.WG_UNIFORM_RESULT:
            return 0
        if name in B.SG_UNIFORM_RESULT:
            return B.SGID if _or(arg_tags) & B.WG_DIVERGENT else _or(arg_tags) & ~B.WG_DIVERGENT
        if self.values and node.start_byte in self.values:
            return self.values[node.start_byte] | _or(arg_tags)  # `GID(0)`, `IN_RANGE(n)`
        summary = self.summaries(name)
        if summary is None:
            return _or(arg_tags)  # pure built-in or unknown: follows its arguments
        for index, tags in summary.out:
            if index < len(args):
                written = subst(tags, arg_tags)
                if written:
                    for k in self._pointee_keys(args[index]):
                        st[k] = st.get(k, 0) | written
                        if written & B.WG_DIVERGENT and k not in self.origins:
                            self.origins[k] = Origin("expr", node)
        return subst(summary.ret, arg_tags)

    def _pointee_keys(self, arg: Node) -> list[int]:
        while arg.type in ("parenthesized_expression", "cast_expression") and arg.named_children:
            arg = arg.named_children[-1]
        if arg.type == "pointer_expression":
            v = root_var(self.names, arg.child_by_field_name("argument"))
            return [v.key] if v is not None and not v.shared else []
        v = root_var(self.names, arg)
        if v is None or v.shared:
            return []
        if v.pointer:
            return [] if v.pointee_shared else list(v.aliases)
        return [v.key]

    # -- statements -----------------------------------------------------------
    def stmt(self, node: Node | None, st: dict[int, int]) -> int:
        if node is None:
            return 0
        if node.type == "declaration":
            for d in node.children_by_field_name("declarator"):
                if d.type == "init_declarator":
                    value = d.child_by_field_name("value")
                    tags = self.expr(value, st)
                    ident = _ident(d.child_by_field_name("declarator"))
                    v = self.names.var(ident) if ident is not None else None
                    if v is not None and not v.shared and value is not None and (
                            self.copy_struct(st, v, value)
                            or value.type == "initializer_list" and self.init_fields(st, v, value)
                            or self.vector_fields(st, v, value)):
                        continue
                    if v is not None and not v.shared:
                        for k in self.names.overlapping(v, None):
                            st.pop(k, None)
                        if tags:
                            st[v.key] = tags
                            if tags & B.WG_DIVERGENT and v.key not in self.origins:
                                self.origins[v.key] = Origin("expr", value)
                        else:
                            st.pop(v.key, None)
            return 0
        if node.type == "return_statement":
            value = node.named_children[0] if node.named_children else None
            tags = self.expr(value, st)
            st[RET] = st.get(RET, 0) | tags
            return tags
        return self.expr(node, st)


_WIDTH = lazy(r"[a-z](2|3|4|8|16)\s*\Z")


def _ident(node: Node | None) -> Node | None:
    while node is not None and node.type != "identifier":
        node = node.child_by_field_name("declarator")
    return node


def _or(tags: list[int]) -> int:
    out = 0
    for t in tags:
        out |= t
    return out


# Each kind `_defs` reads is spelled with one of these (every assignment operator has '=').
_WRITE_MARKS = (b"=", b"++", b"--", b"return", b"&")


def _defs(ev: _Eval, syntax: Node | None) -> set[int]:
    """Variables a CFG node may write (syntactically)."""
    out: set[int] = set()
    if syntax is None:
        return out
    text = syntax.text  # (None where the tree keeps no source: then walked)
    if text is not None and not syntax.has_error and not any(w in text for w in _WRITE_MARKS):
        return out  # no assignment ('='), update, declaration with a value, return or '&'
    for n in walk(syntax):
        t = n.type
        if t == "assignment_expression":
            left = n.child_by_field_name("left")
            if left is not None:
                out.update(ev.targets(left)[0])
        elif t == "update_expression":
            arg = n.child_by_field_name("argument")
            if arg is not None:
                out.update(ev.targets(arg)[0])
        elif t == "init_declarator":
            v = ev.names.var(_ident(n.child_by_field_name("declarator")) or n)
            if v is not None and not v.shared:
                out.add(v.key)
        elif t == "return_statement":
            out.add(RET)
        elif t == "call_expression":
            args = n.child_by_field_name("arguments")
            for a in args.named_children if args else ():
                if a.type == "pointer_expression" and _text(a).startswith("&"):
                    out.update(ev._pointee_keys(a))
    return out


# A `.` not starting a number's fraction (`0.5f`): perhaps a field (`c.a`), `_defs` may number it.
_FIELD_DOT = lazy(rb"\.(?![0-9])")


def _may_name_field(syntax: Node | None) -> bool:
    if syntax is None:
        return False
    text = syntax.text
    return text is None or _FIELD_DOT.search(text) is not None


def analyse(names: Names, cfg: CFG, params: list[VarInfo], is_kernel: bool,
            summaries: Callable[[str], CalleeSummary | None],
            flat_dims: frozenset[int] = frozenset(),
            macros: Mapping[int, MacroSync] | None = None,
            values: Mapping[int, int] | None = None,
            aligned: Mapping[tuple[int, int], tuple[Node, ...]] | None = None) -> Facts:
    """`macros`: uses of macros standing for collectives (macros.py), by start byte: of
    the call for a call, of the name otherwise. `aligned`: comparisons of whole tiles of the
    work-group (aligned.py), by (start, end), with the leaves that must be uniform there."""
    ipdom = postdominators(cfg)
    deps = control_dependence(cfg, ipdom)
    origins: dict[int, Origin] = {}
    calls: dict[int, CallSite] = {}
    ev = _Eval(names, summaries, origins, calls, flat_dims, macros, values, aligned)
    n = len(cfg.nodes)
    preds = cfg.preds()
    # What a node may write is asked only for the nodes of a divergent branch's region (most
    # are in none). Reading it may number a private struct's field (`c.a = x`), and the numbers
    # follow the order asked: where a node may name a field, every node is read first, in order.
    defs: list[set[int] | None] = [None] * n
    if any(_may_name_field(node.syntax) for node in cfg.nodes):
        defs = [_defs(ev, node.syntax) for node in cfg.nodes]

    def defs_of(r: int) -> set[int]:
        d = defs[r]
        if d is None:
            d = defs[r] = _defs(ev, cfg.nodes[r].syntax)
        return d

    entry_state: dict[int, int] = {}
    if not is_kernel:
        for p in params:
            if p.param_index is not None:
                entry_state[p.key] = B.param_bit(p.param_index)
                if p.pointer and not p.pointee_shared:
                    entry_state[out_key(p.param_index)] = 0
    branch_tags: dict[int, int] = {}
    # Which divergent branches merge at each node, with the variables they may have changed.
    merges: dict[int, list[tuple[int, set[int]]]] = {}
    region_defs: dict[int, set[int]] = {}

    out_states: list[dict[int, int] | None] = [None] * n
    in_states: list[dict[int, int]] = [{} for _ in range(n)]
    # Reverse post-order from the entry gives a good iteration order.
    order = _rpo(cfg)
    rank = {v: i for i, v in enumerate(order)}
    heap = [rank[v] for v in order]
    queued = set(order)

    def push(x: int) -> None:
        if x not in queued and x in rank:
            queued.add(x)
            heapq.heappush(heap, rank[x])

    while heap:
        v = order[heapq.heappop(heap)]
        queued.discard(v)
        node = cfg.nodes[v]
        if v == cfg.entry:
            st = dict(entry_state)
        else:
            st = {}
            for p in preds[v]:
                ps = out_states[p]
                if ps:
                    for k, t in ps.items():
                        st[k] = st.get(k, 0) | t
        for b, written in merges.get(v, ()):
            tags = branch_tags.get(b, 0)
            for k in written:
                st[k] = st.get(k, 0) | tags
                if k not in origins and tags & B.WG_DIVERGENT:
                    origins[k] = Origin("merge", cfg.nodes[b].syntax, b)
        in_states[v] = dict(st)
        ev.cfg_node = v
        if node.kind == "branch":
            tags = ev.expr(node.syntax, st) if node.syntax is not None else 0
            old = branch_tags.get(v, 0)
            if tags | old != old:
                branch_tags[v] = tags | old
                stop = ipdom[v]
                if stop >= 0 and len(set(node.succs)) > 1:
                    if v not in region_defs:
                        reg = region(cfg, v, stop)
                        region_defs[v] = set().union(*(defs_of(r) for r in reg)) if reg else set()
                        merges.setdefault(stop, []).append((v, region_defs[v]))
                    push(stop)
        elif node.kind in ("stmt", "return"):
            ev.stmt(node.syntax, st)
        if out_states[v] != st:
            out_states[v] = st
            for s in node.succs:
                push(s)
    exit_state = in_states[cfg.exit]
    out = {p.param_index: exit_state.get(out_key(p.param_index), 0) for p in params
           if p.param_index is not None and p.pointer and not p.pointee_shared}
    return Facts(cfg, ipdom, deps, names, branch_tags, in_states, origins,
                 sorted(calls.values(), key=lambda c: c.node.start_byte), exit_state.get(RET, 0), out,
                 values or {})


def _rpo(cfg: CFG) -> list[int]:
    seen = {cfg.entry}
    order: list[int] = []
    stack = [(cfg.entry, iter(cfg.nodes[cfg.entry].succs))]
    while stack:
        v, it = stack[-1]
        for s in it:
            if s not in seen:
                seen.add(s)
                stack.append((s, iter(cfg.nodes[s].succs)))
                break
        else:
            stack.pop()
            order.append(v)
    order.reverse()
    return order
