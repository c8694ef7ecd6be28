"""A field or component of a private variable given a work-group-uniform value after the
variable as a whole was given a per-item one (issues 29 and 31): mnn's softmax sums a `float4`
per work-item, then sets its `.x` to the reduction's result (`sum.x = l[0]`) and adds uniform
terms in a tail loop; every work-item then stores the same `x / sum.x`. The uniformity analysis
reads a field with its whole variable (what it knows of the whole may flow into any field), so
the same-value check asks here: along every path back from the store, is `v.p` last written by
`v.p = e` (and `v.p op= e`) with `e` uniform, no write of `v` as a whole or of another of its
parts in between, none of those writes under a test the work-items take differently?

Conservative by design: a declaration, `&v`, a write of `v` or of another part (`v.xy` overlaps
`v.x`) on the way, a path from the kernel's start without such a write, a write under a
divergent branch (its control dependence, transitively), or a value with a load that may be
written while read (`stable_loads`) leaves the field as the uniformity analysis has it.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

from cllint.analysis.races.stable_loads import steady_read
from cllint.analysis.uniformity import builtins as B

MAX_NODES = 4096  # CFG nodes walked back per field
MAX_DEPTH = 4  # fields whose values read other fields, followed


def uniform_with_fields(k: Any, value: Node, cfg_node: int, depth: int = 0,
                        assumed: frozenset[tuple[int, str]] = frozenset()) -> bool:
    """Whether `value` (evaluated at `cfg_node`) is the same in every work-item of a work-group
    once the private fields it reads are judged by their own writes (module docstring)."""
    if depth > MAX_DEPTH:
        return False
    fields = _field_reads(k, value)
    if fields is None:
        return False
    proven: set[tuple[int, str]] = set()
    for key, path, var in fields:
        if (key, path) in assumed or _field_uniform(k, var, path, cfg_node, depth, assumed | {(key, path)}):
            proven.add((key, path))
        else:
            return False
    st = dict(k.facts.in_states[k.real_node(cfg_node)])
    names = k.tagger.names
    for key, path, var in fields:  # what is proven of the field stands for the whole variable's
        st.pop(key, None)
        for fk in names.overlapping(var, path):
            st.pop(fk, None)
    ev = k.tagger
    ev.cfg_node, ev.guards, ev.calls, ev.origins = k.real_node(cfg_node), [], {}, {}
    return not ev.expr(value, st) & B.WG_DIVERGENT


def _field_reads(k: Any, value: Node) -> list[tuple[int, str, Any]] | None:
    """(variable key, path, variable) of each `v.p` the value reads of a private, non-pointer
    variable; None when it reads such a variable otherwise too (whole, `v[i]`, `&v`)."""
    names = k.tagger.names
    out: dict[tuple[int, str], Any] = {}
    whole: set[int] = set()
    stack = [value]
    while stack:
        n = stack.pop()
        if n.type == "field_expression":
            fp = names.field_path(n)
            if fp is not None and not fp[0].shared and not fp[0].pointer and not fp[0].array \
                    and fp[0].param_index is None:
                out[(fp[0].key, fp[1])] = fp[0]
                continue
        if n.type == "identifier":
            v = names.var(n)
            if v is not None:
                whole.add(v.key)
        stack.extend(n.named_children)
    if any(key in whole for key, _ in out):
        return None
    return [(key, path, v) for (key, path), v in out.items()]


def _field_uniform(k: Any, var: Any, path: str, use: int, depth: int,
                   assumed: frozenset[tuple[int, str]]) -> bool:
    cfg = k.cfg
    preds = k._edges[1] if k._edges is not None else cfg.preds()
    start = k.real_node(use)
    defs: list[tuple[int, Node]] = []
    seen: set[int] = set()
    work = list(preds[start])
    if not work:
        return False
    while work:
        node = work.pop()
        if node in seen:
            continue
        seen.add(node)
        if len(seen) > MAX_NODES:
            return False
        syntax = cfg.nodes[node].syntax
        kind, rhs = _writes(k, syntax, var, path) if syntax is not None else (None, None)
        if kind == "whole":
            return False
        if kind in ("field", "field_op"):
            defs.append((node, rhs))
            if kind == "field":
                continue
        back = preds[node]
        if not back:
            return False  # the kernel's start, no write of the field on the way
        work.extend(back)
    for node, rhs in defs:
        if rhs is None or _under_divergence(k, node) or not _reads_steady(k, rhs, node):
            return False
        if not uniform_with_fields(k, rhs, node, depth + 1, assumed):
            return False
    return bool(defs)


def _writes(k: Any, syntax: Node, var: Any, path: str) -> tuple[str | None, Node | None]:
    """How a CFG node's syntax writes `var`: ("field", e) for `var.path = e`, ("field_op", e)
    for `var.path op= e` or `++`, ("whole", None) for any other write of it (its declaration,
    an assignment, `&var`, another part), (None, None) for none."""
    names = k.tagger.names
    if syntax.type in ("for_statement", "while_statement", "do_statement", "if_statement", "switch_statement",
                       "compound_statement"):
        return None, None  # (a branch node's syntax is its condition; statements have nodes of their own)
    got: tuple[str | None, Node | None] = (None, None)
    stack = [syntax]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        target, rhs, plain = None, None, False
        if n.type == "assignment_expression":
            target, rhs = n.child_by_field_name("left"), n.child_by_field_name("right")
            op = n.child_by_field_name("operator")
            plain = op is not None and op.type == "="
        elif n.type == "update_expression":
            target = n.child_by_field_name("argument")
        elif n.type == "pointer_expression" and n.child_by_field_name("operator") is not None \
                and n.child_by_field_name("operator").type == "&":
            target = n.child_by_field_name("argument")
        elif n.type == "init_declarator" or n.type == "declaration":
            d = n.child_by_field_name("declarator")
            while d is not None and d.type != "identifier":
                d = d.child_by_field_name("declarator")
            if d is not None and names.var(d) is not None and names.var(d).key == var.key:
                return "whole", None
            continue
        if target is None:
            continue
        while target.type == "parenthesized_expression" and target.named_children:
            target = target.named_children[0]
        fp = names.field_path(target) if target.type == "field_expression" else None
        if fp is not None and fp[0].key == var.key:
            if fp[1] != path or n.type == "pointer_expression":
                return "whole", None
            got = ("field", rhs) if plain else ("field_op", rhs if rhs is not None else target)
            continue
        root = target
        while root.type in ("subscript_expression", "field_expression", "parenthesized_expression") \
                and root.named_children:
            root = root.child_by_field_name("argument") or root.named_children[0]
        v = names.var(root) if root.type == "identifier" else None
        if v is not None and v.key == var.key:
            return "whole", None
    return got


def _under_divergence(k: Any, node: int) -> bool:
    """Whether `node` runs under a branch the work-items may take differently (its control
    dependence, followed up)."""
    deps = k.facts.deps
    seen: set[int] = set()
    work = list(deps[node]) if node < len(deps) else []
    while work:
        b = work.pop()
        if b in seen:
            continue
        seen.add(b)
        if k.facts.branch_tags.get(b, 0) & B.WG_DIVERGENT:
            return True
        work.extend(deps[b])
    return False


def _reads_steady(k: Any, value: Node, node: int) -> bool:
    """Every load and call in a field's value reads one value for all (`steady_read`)."""
    stack = [value]
    while stack:
        n = stack.pop()
        if n.type in ("subscript_expression", "pointer_expression", "call_expression") \
                and n.id not in k.uniform_calls and not steady_read(k, n, node):
            return False
        stack.extend(n.named_children)
    return True
