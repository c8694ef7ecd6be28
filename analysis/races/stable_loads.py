"""Loads that read one value for the work-items that make them (issues 29 and 31): the
same-value policy (`cllint explain CL210`: a race where every work-item writes the same value
is reported only if the values can differ) through memory.

A load reads the same value in two work-items of one work-group when they read the same
element and no work-item writes that memory while they read it: for `__local` memory, no
write to the array (nor through a pointer the analysis did not pin to an array) in the
load's barrier interval, before or after it (`out[group] = l[0]` after a reduction's last
barrier); for `__global` memory, read-only memory: a `const` or `__constant` pointer nothing in
the kernel writes through (another work-group may write any other buffer at any time).
Conservative by design: any such write makes the load's value one that can differ.

Two uses: `steady_read` (a load at a work-group-uniform address, the address judged by the
uniformity analysis: the whole work-group stores one value) and `values_agree` (two
work-items that meet at one element load the same elements: `s[w] = t[w]` per warp).
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from cllint.analysis.catalogue import catalogue
from cllint.analysis.races.accesses import Access, space_of
from cllint.analysis.uniformity.dataflow import callee_name
from cllint.analysis.uniformity.names import VarInfo

# Built-ins whose result follows their arguments alone (no memory, no work-item state).
_PURE_CATEGORIES = frozenset({"math", "common", "integer", "relational", "geometric", "conversion"})
_QUERIES = frozenset({"work-item"})  # uniform or not as the uniformity analysis says
_LOADS = frozenset({"subscript_expression", "pointer_expression"})
_CONST_POINTEE = re.compile(r"\b(?:const|__constant|constant)\b")
MAX_DEPTH = 64  # nodes of one stored value followed per work-item pair


def pure_builtin(name: str | None) -> bool:
    f = catalogue().function(name) if name else None
    return f is not None and f.category in _PURE_CATEGORIES


def _type_cast(k: Any, call: Node) -> bool:
    """`(COMPUTE_FLOAT)(x)` with a macro for a type: read as a call of `(COMPUTE_FLOAT)`, but a
    parenthesized name that is no variable and no function of the file can only be a cast."""
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "parenthesized_expression" or fn.named_child_count != 1:
        return False
    inner = fn.named_children[0]
    return inner.type == "identifier" and k.names.var(inner) is None \
        and (inner.text or b"").decode() not in k.fa.functions


def _query(name: str | None) -> bool:
    f = catalogue().function(name) if name else None
    return f is not None and f.category in _QUERIES


def load_at(k: Any, node: Node) -> Access | None:
    """The kernel's own plain read of shared memory made by `node` (None: a private array,
    a write, an atomic, a copy, or a read in a helper)."""
    loads = k.__dict__.get("_plain_loads")
    if loads is None or loads[0] is not k.stored:
        loads = k.__dict__["_plain_loads"] = (k.stored, {
            a.node.id: a for a in k.stored
            if a.read and not a.write and not a.atomic and not a.copy and a.site is None})
    return loads[1].get(node.id)


def stable(k: Any, load: Access) -> bool:
    """Whether no work-item writes what `load` reads while it may read it (module docstring)."""
    memo = k.__dict__.setdefault("_stable_loads", {})  # asked again by every pair and round
    got = memo.get(id(load))
    if got is None:
        got = memo[id(load)] = _stable(k, load)
    return got


def _stable(k: Any, load: Access) -> bool:
    return stable_base(k, load.base, load.space, load.cfg_node)


def stable_base(k: Any, base: VarInfo, space: str | None, cfg_node: int) -> bool:
    """`stable` for a load of `base` (in `space`) at `cfg_node`."""
    if space == "global":
        if base.param_index is None or not _const_pointee(base.decl, base.name):
            return False
        return not any(w.write and w.base.key == base.key for w in k.stored)
    if space != "local":
        return False
    covering = {n for n, (spaces, _) in k.barriers.items() if "local" in spaces}
    after_load = k.reach_of(cfg_node, covering)
    for w in k.stored:
        if not w.write or w.space != "local":
            continue
        if w.base.key != base.key and (w.base.array or w.base.param_index is not None
                                       or (w.base.shared and not w.base.pointer)):
            continue  # another array: no alias
        if w.cfg_node == cfg_node or w.cfg_node in after_load or cfg_node in k.reach_of(w.cfg_node, covering):
            return False
    return True


def _array_load(k: Any, node: Node, cfg_node: int) -> bool:
    """A subscript of a `__local` array or a kernel's pointer argument that the accesses
    did not list (an index inside another's: `l[pick[0]]`), read where `cfg_node` is."""
    root = node
    while root is not None and root.type in ("subscript_expression", "parenthesized_expression"):
        root = root.child_by_field_name("argument") if root.type == "subscript_expression" \
            else (root.named_children[0] if root.named_child_count == 1 else None)
    v = k.names.var(root) if root is not None and root.type == "identifier" else None
    if root is None or root.type != "identifier" or _written(node):
        return False
    if v is None:
        return _constant_table(root)
    if not (v.array or v.param_index is not None):
        return False
    if _in_constant(v.decl):
        return True  # read-only memory (OpenCL C 6.7.3)
    return stable_base(k, v, space_of(v), cfg_node)


def _in_constant(decl: Node) -> bool:
    """Whether a declaration (of a parameter or variable, from its declarator) puts it, or
    what it points to, in the `__constant` address space."""
    while decl.parent is not None and decl.type not in ("parameter_declaration", "declaration"):
        decl = decl.parent
    return any(q.type == "address_space_qualifier" and (q.text or b"").lstrip(b"_") == b"constant"
               for c in decl.children if c.type in ("type_qualifier", "address_space_qualifier")
               for q in [c, *c.children])


def _constant_table(ident: Node) -> bool:
    """A program-scope `__constant` array the kernel reads (`constant float t[4] = {..}`)."""
    root = ident
    while root.parent is not None:
        root = root.parent
    name = ident.text
    for decl in root.named_children:
        if decl.type == "declaration" and _in_constant(decl) and name in (decl.text or b""):
            for d in decl.children_by_field_name("declarator"):
                target = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                while target is not None and target.type != "identifier":
                    target = target.child_by_field_name("declarator")
                if target is not None and target.text == name:
                    return True
    return False


def _written(node: Node) -> bool:
    """Whether the subscript is assigned or updated (not a plain read)."""
    p = node.parent
    while p is not None and p.type == "parenthesized_expression":
        p = p.parent
    return p is not None and (p.type == "update_expression" or p.type == "assignment_expression"
                              and p.child_by_field_name("left") == node)


def _const_pointee(decl: Node, name: str) -> bool:
    """`global const float *p`, `constant float *p`: the pointee is read-only (the qualifiers
    before the last `*`; `float *const p` makes the pointer const, not what it points to)."""
    while decl.parent is not None and decl.type not in ("parameter_declaration", "declaration"):
        decl = decl.parent
    text = decl.text.decode("utf-8", "replace") if decl.text else ""
    head = text[: text.rfind(name)] if name in text else text
    star = head.rfind("*")
    return star >= 0 and _CONST_POINTEE.search(head[:star]) is not None


def steady_read(k: Any, node: Node, cfg_node: int) -> bool:
    """A node of a stored value the uniformity analysis holds uniform that reads no value
    of its own: a stable load, or a pure built-in's call (its arguments are walked on)."""
    if node.type == "call_expression":
        name = callee_name(node)
        return (pure_builtin(name) or _query(name)) and name not in k.fa.functions or _type_cast(k, node)
    load = load_at(k, node)
    if load is None:
        return node.type == "subscript_expression" and _array_load(k, node, cfg_node)
    return stable(k, load)


def values_agree(k: Any, value: Node, cfg_node: int, env1: Any, env2: Any) -> bool:
    """Whether `value` (a kernel store's) is the same in two work-items of one work-group:
    each part either uniform by the uniformity analysis and reading no memory, or computed
    here to the same number in both, loads stable and at one element for both."""
    budget = [MAX_DEPTH]

    def same(n: Node) -> bool:
        budget[0] -= 1
        if budget[0] < 0:
            return False
        if n.type in _LOADS:
            load = load_at(k, n)
            if load is None:  # (an index inside another's: one element if the index is uniform)
                return n.type == "subscript_expression" and _array_load(k, n, cfg_node) \
                    and same(n.child_by_field_name("index"))
            if load.offset or not stable(k, load):
                return False
            return all(_equal(k, i, env1, env2) or same(i) for i in load.indices)
        if n.type == "call_expression" and _type_cast(k, n):
            args = n.child_by_field_name("arguments")
            return args is not None and all(same(a) for a in args.named_children)
        if n.type == "call_expression":
            name = callee_name(n)
            if _query(name) and name not in k.fa.functions:
                return not k.divergent(n, cfg_node) or _equal(k, n, env1, env2)
            if not pure_builtin(name) or name in k.fa.functions:
                return False
            args = n.child_by_field_name("arguments")
            return args is None or all(same(a) for a in args.named_children)
        if not _reads(n) and not k.divergent(n, cfg_node):
            return True
        if n.type in ("identifier", "field_expression"):
            return _equal(k, n, env1, env2)
        return bool(n.named_children) and all(same(c) for c in n.named_children)

    return same(value)


def _reads(n: Node) -> bool:
    """Whether a subtree loads memory or calls anything (the uniformity analysis holds a load
    at a uniform address uniform, whoever writes it)."""
    stack = [n]
    while stack:
        x = stack.pop()
        if x.type in _LOADS or x.type == "call_expression":
            return True
        stack.extend(x.named_children)
    return False


def _equal(k: Any, n: Node, env1: Any, env2: Any) -> bool:
    v1, v2 = k.ev.value(n, env1), k.ev.value(n, env2)
    return isinstance(v1, int) and not isinstance(v1, bool) and v1 == v2
