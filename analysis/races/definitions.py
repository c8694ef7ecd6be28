"""What a function's body defines once: private variables by their initialiser, fields of
private structs stored once at the top level, `for` counters changed only by their
header, and which variables are assigned at all. The race check evaluates indices and
guards through these, in kernels and in the helpers they call."""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds
from cllint.analysis.races.struct_fills import Shifted
from cllint.analysis.syntax import walk
from cllint.analysis.uniformity.cfg import CFG
from cllint.analysis.uniformity.names import Names, declared_name


# The kinds the two passes read, found by a query (in C) instead of Python walks of every node.
_DEFINING = frozenset({"init_declarator", "assignment_expression", "update_expression", "pointer_expression"})
_LOOPS = frozenset({"for_statement", "while_statement", "do_statement"})


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


def definitions(body: Node, names: Names, cfg: CFG, lends: Callable[[Node], bool] | None = None,
                fills: Callable[[Node], dict[str, Node | Shifted] | None] | None = None,
                shifts: dict[int, tuple[tuple[Node, int], ...]] | None = None,
                ) -> tuple[dict[int, Node], dict[int, tuple], dict[int, set[int]], set[int]]:
    """Private variables defined once by their initialiser (key -> value), and fields of
    private structs assigned once at the body's top level (`c.lid = get_local_id(0);`, by
    field key), loop counters (key -> (init value, condition, update, loop)) changed only by
    their `for`'s header, the CFG nodes that assign each counter, and every variable assigned
    in the body. `lends(amp)`: whether `&s` is handed to a helper that stores nothing into `s`
    (races/struct_params.py), which then leaves `s`'s fields defined. `fills(node)`: the fields
    `init(&s, ...)` or `s = make(...)` gives `s` (races/struct_fills.py), defined as stored once;
    a field given an offset of the argument (`buf + o`) is defined as the argument, its offsets
    put in `shifts` (field key -> (node, sign) the caller evaluates; no `shifts`: not defined)."""
    inits: dict[int, Node] = {}
    writes: dict[int, int] = {}
    fields: dict[tuple[int, str], list[Node]] = {}  # (struct key, field path) -> its stores
    whole: set[int] = set()  # structs stored into other than by a field's name
    through: list[tuple[int, str]] = []  # (struct key, field path) of stores `c.p[i] = v`
    given: dict[int, list[dict[str, Node]]] = {}  # struct key -> the fields each fill gives it
    for n in nodes_of_kinds(body, _DEFINING):
        if n.type == "init_declarator":
            d = n.child_by_field_name("declarator")
            while d is not None and d.type == "pointer_declarator":  # `local float *p = ...`
                d = d.child_by_field_name("declarator")
            if d is not None and d.type == "array_declarator":  # `local float (*t)[8] = ...`: a pointer
                d = declared_name(d)
                d = d if d is not None and (pv := names.var(d)) is not None and pv.pointer and not pv.array else None
            v = names.var(d) if d is not None else None
            if v is not None:
                inits[v.key] = n.child_by_field_name("value")
        elif n.type in ("assignment_expression", "update_expression"):
            target = n.child_by_field_name("left") if n.type == "assignment_expression" else \
                n.child_by_field_name("argument")
            v = names.var(target) if target is not None else None
            if v is not None:
                writes[v.key] = writes.get(v.key, 0) + 1
            elif target is not None:
                fp = names.field_path(target) if target.type == "field_expression" else None
                if fp is not None:
                    fields.setdefault((fp[0].key, fp[1]), []).append(n)
                elif (fp := _stored_through(names, target)) is not None:
                    through.append(fp)
                else:
                    whole |= _root_keys(names, target)
        elif n.type == "pointer_expression" and _text(n.child_by_field_name("operator")) == "&":
            v = names.var(n.child_by_field_name("argument")) if n.child_by_field_name("argument") else None
            if v is not None and lends is not None and lends(n):
                continue  # `put(&s, ...)` of a helper that only reads `s`'s fields
            got = fills(n) if v is not None and fills is not None else None
            call = n.parent.parent if got is not None and n.parent is not None else None  # (of `init(&s, A)`)
            stmt = call.parent if call is not None else None
            if stmt is not None and stmt.type == "expression_statement" and stmt.parent is not None \
                    and (stmt.parent == body or _declares(stmt.parent, v)):
                given.setdefault(v.key, []).append(got)
                continue  # `init(&s, A);` run once: the fields it stores, each once
            if v is not None:
                writes[v.key] = writes.get(v.key, 0) + 2
            elif n.child_by_field_name("argument") is not None:
                whole |= _root_keys(names, n.child_by_field_name("argument"))
    # `c.p[i] = v` stores through the field where the field is assigned by name (`c.p = A`:
    # a pointer, as an array field cannot be); else into the struct's own array
    made = {k: got for k, val in inits.items() if fills is not None and val is not None
            and val.type == "call_expression" and (got := fills(val)) is not None}  # `ref_t s = make(A);`
    gave = {**made, **{k: got[0] for k, got in given.items() if len(got) == 1}}
    whole |= {k for k, path in through if (k, path) not in fields and path not in gave.get(k, ())}
    counters: dict[int, tuple] = {}
    for n in nodes_of_kinds(body, _LOOPS):
        if n.type in ("while_statement", "do_statement"):
            got = _while_counter(n, names, inits, writes)
            if got is not None:
                counters[got[0]] = got[1]
            continue
        init, update = n.child_by_field_name("initializer"), n.child_by_field_name("update")
        if init is None or update is None:
            continue
        target = update.child_by_field_name("left") if update.type == "assignment_expression" else \
            update.child_by_field_name("argument")
        v = names.var(target) if target is not None and target.type == "identifier" else None
        if v is None or v.pointer or v.array:
            continue
        start = None
        if init.type == "declaration":
            for d in init.children_by_field_name("declarator"):
                if d.type == "init_declarator" and names.var(d.child_by_field_name("declarator")) is v:
                    start = d.child_by_field_name("value")
            if start is None or writes.get(v.key, 0) != 1:
                continue
        elif init.type == "assignment_expression" and names.var(init.child_by_field_name("left")) is v:
            start = init.child_by_field_name("right")
            if writes.get(v.key, 0) != 2 or v.key in inits and inits[v.key] is not None:
                continue
        else:
            continue
        counters[v.key] = (start, n.child_by_field_name("condition"), update, n)
    defs = {k: val for k, val in inits.items() if val is not None and not writes.get(k) and k not in counters}
    defs.update(_field_definitions(body, names, fields, whole | set(writes) | {k for k, v in inits.items() if v}
                                   | set(given), counters))
    if gave:
        _filled_definitions(names, inits, given, gave, fields, whole | set(writes), defs, shifts)
    assigning: dict[int, set[int]] = {}
    for node in cfg.nodes:
        for k, (_, _, update, loop) in counters.items():
            init = loop.child_by_field_name("initializer")
            stmt = update.parent if update.parent is not None and update.parent.type == "expression_statement" else None
            if node.syntax is not None and node.syntax in (update, init, stmt):
                assigning.setdefault(k, set()).add(node.id)
    return defs, counters, assigning, set(writes)


def _while_counter(loop: Node, names: Names, inits: dict[int, Node | None],
                   writes: dict[int, int]) -> tuple[int, tuple] | None:
    """`int d = 16; while (d > 0) { ...; d >>= 1; }`: a variable its declaration starts, the
    loop's condition tests and one statement of the body's own changes, read like a `for`
    counter: nothing after that statement in the body names it, nothing in the body may
    `continue` past it, and nothing outside the loop reads it (its values are the loop's).
    A `do ... while` alike: its values are those its start meets the condition with (a first
    value that does not gives none, and nothing is found in the loop)."""
    cond, body = loop.child_by_field_name("condition"), loop.child_by_field_name("body")
    if cond is None or body is None or body.type != "compound_statement":
        return None
    stmts = [c for c in body.named_children if c.type != "comment"]
    for i, st in enumerate(stmts):
        e = st.named_children[0] if st.type == "expression_statement" and st.named_child_count == 1 else None
        if e is None or e.type not in ("assignment_expression", "update_expression"):
            continue
        target = e.child_by_field_name("left" if e.type == "assignment_expression" else "argument")
        v = names.var(target) if target is not None and target.type == "identifier" else None
        if v is None or v.pointer or v.array or writes.get(v.key, 0) != 1 or inits.get(v.key) is None:
            continue
        uses = [u for u in walk(cond) if u.type == "identifier" and names.var(u) is v]
        later = any(u.type == "identifier" and names.var(u) is v for s2 in stmts[i + 1:] for u in walk(s2))
        if not uses or later or _continues(body):
            continue
        if any(u is v and at != v.key and not loop.start_byte <= at < loop.end_byte for at, u in names.uses.items()):
            continue  # read outside the loop
        return v.key, (inits[v.key], cond, e, loop)
    return None


def _continues(body: Node) -> bool:
    """A `continue` of this loop (not of a loop inside it)."""
    for n in walk(body):
        if n.type == "continue_statement":
            p = n.parent
            while p is not None and p != body and p.type not in ("for_statement", "while_statement", "do_statement"):
                p = p.parent
            if p == body:
                return True
    return False


def _field_definitions(body: Node, names: Names, fields: dict[tuple[int, str], list[Node]], touched: set[int],
                       counters: dict[int, tuple]) -> dict[int, Node]:
    """Field key -> value of each field stored once, by a plain `c.f = v;` among the body's
    own statements (so it runs before everything after it, once), or among those of the
    block that declares `c` (`pair_t p; p.partner = lid ^ j;` in a loop's body: a fresh `c`
    each time the block runs, so `v` may name the loops' counters around it), where nothing
    else stores into `c` (no other store to an overlapping field, no initialiser, no `&c`)
    and, at the body's top level, `v` names no loop counter."""
    by_var = {v.key: v for v in names.variables}
    out: dict[int, Node] = {}
    for (vk, path), stores in fields.items():
        if len(stores) != 1 or vk in touched or vk not in by_var:
            continue
        if any(k == vk and p != path and (p.startswith(path + ".") or path.startswith(p + "."))
               for k, p in fields):
            continue
        a = stores[0]
        value = a.child_by_field_name("right") if a.type == "assignment_expression" else None
        block = a.parent.parent if a.parent is not None else None
        if value is None or _text(a.child_by_field_name("operator")) != "=" or a.parent is None \
                or a.parent.type != "expression_statement" or block is None \
                or block != body and not _declares(block, by_var[vk]):
            continue
        named = [u.key for m in walk(value) if m.type == "identifier" and (u := names.var(m)) is not None
                 and u.key in counters]
        if named and (block == body or any(not counters[k][3].start_byte <= block.start_byte < counters[k][3].end_byte
                                           for k in named)):
            continue
        out[names.field_key(by_var[vk], path)] = value
    return out


def _filled_definitions(names: Names, inits: dict[int, Node], given: dict[int, list], gave: dict[int, dict],
                        fields: dict[tuple[int, str], list[Node]], touched: set[int], defs: dict[int, Node],
                        shifts: dict[int, tuple[tuple[Node, int], ...]] | None) -> None:
    """Field key -> the argument a helper gave it, for a struct filled once (`init(&s, A);`, a
    statement of the body or of the block declaring `s`, nothing else storing into `s`) or made
    by its initialiser (`ref_t s = make(A);`, `s` never stored into after)."""
    by_var = {v.key: v for v in names.variables}
    stored = {k for k, _ in fields}
    for key, got in gave.items():
        v = by_var.get(key)
        if v is None or key in touched or key in stored or key in given and inits.get(key) is not None:
            continue  # (filled and initialised, or stored into: which value a use sees is not read)
        defs.pop(key, None)  # `make(A)`: read field by field
        for f, arg in got.items():
            key = names.field_key(v, f)
            if isinstance(arg, Shifted):
                if shifts is not None:  # (else not read: the offsets would be lost)
                    defs[key], shifts[key] = arg.base, arg.offsets
            else:
                defs[key] = arg


def _declares(block: Node, v: object) -> bool:
    """Whether `v` is declared by one of `block`'s own statements."""
    decl = getattr(v, "decl", None)
    while decl is not None and decl.type != "declaration":
        decl = decl.parent
    return decl is not None and decl.parent == block


def _stored_through(names: Names, target: Node) -> tuple[int, str] | None:
    """(struct key, field path) of a store's target `c.p[i]` (`c.a.p[i]`): an element of a
    private struct's field, which writes into the struct only if the field is an array."""
    if target.type != "subscript_expression":
        return None
    base = target.child_by_field_name("argument")
    while base is not None and base.type == "parenthesized_expression" and base.named_child_count == 1:
        base = base.named_children[0]
    fp = names.field_path(base) if base is not None and base.type == "field_expression" else None
    return (fp[0].key, fp[1]) if fp is not None else None


def _root_keys(names: Names, node: Node) -> set[int]:
    """The variable under `c.a[i].b` (or `(c)`): the one a store there writes into."""
    while node.type in ("field_expression", "subscript_expression", "parenthesized_expression") \
            and node.named_children:
        node = node.child_by_field_name("argument") or node.named_children[0]
    v = names.var(node)
    return {v.key} if v is not None else set()
