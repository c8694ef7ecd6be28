"""Redefinitions in one scope (CL018): two locals (or a local and a parameter) of one name in
the same block, and two bodies for one function. Two declarations in different arms of an
`#if` are not both compiled, so only declarations in the same arm count."""

from __future__ import annotations


from tree_sitter import Node

from cllint.analysis.model import SemanticModel, Symbol, SymbolKind
from cllint.analysis.model.walk import head_end

from .context import Body, FileFacts, known
from cllint.analysis.lazy_re import lazy


def _same_arm(facts: FileFacts, a: int, b: int) -> bool:
    view = facts.view
    return view is None or view.branch_at(a) is view.branch_at(b)


def check_locals(body: Body) -> None:
    fm = body.fm
    seen: dict[tuple[int, str], Symbol] = {}
    for sym in [*fm.params, *fm.locals]:
        if not sym.name or sym.node is None or "extern" in sym.storage:
            continue
        key = (sym.scope_start, sym.name)
        first = seen.get(key)
        if first is None or first.node is None:
            seen[key] = sym
            continue
        if not _same_arm(body.facts, first.offset, sym.offset) or sym.node.has_error:
            continue
        if not (known(first.type) and known(sym.type)) or _reads_as_expression(body, sym):
            continue  # `a * b;` read as a declaration of `b`, a type name a macro hides...
        message = f"redefinition of '{sym.name}'"
        if sym.type != first.type and first.type.render() != sym.type.render():
            message += f" with a different type: '{sym.type.render()}' vs '{first.type.render()}'"
        body.add("CL018", sym.node.start_byte, sym.node.end_byte, message,
                 ((first.node.start_byte, first.node.end_byte, "previous definition is here"),))


def _reads_as_expression(body: Body, sym: Symbol) -> bool:
    """`a * b;`, `a ^ b;`: an expression statement the tree reads as a declaration of `b`
    whose type is named like a variable in scope."""
    decl = sym.decl
    t = decl.child_by_field_name("type") if decl is not None else None
    if t is None or t.type != "type_identifier":
        return False
    found = body.fm.scope_at(t.start_byte).lookup(body.text(t))
    return found is not None and found.kind is not SymbolKind.TYPEDEF


def check_functions(facts: FileFacts, model: SemanticModel, in_focus, add) -> None:  # noqa: ANN001
    """Two definitions of one function name in the same arm."""
    first: dict[str, Node] = {}
    first_def: dict[str, Node] = {}
    # Only a name the file repeats: `_name` finds a subset of what walk.name_node finds (it
    # stops at a macro declarator), so its repeats are among these definitions, in order.
    counts: dict[str | None, int] = {}
    for _, named in model.definition_names():
        counts[named] = counts.get(named, 0) + 1
    for d, named in model.definition_names():
        if named is None or counts[named] < 2:
            continue
        name_node = _name(d)
        if name_node is None:
            continue
        name = model.source[name_node.start_byte:name_node.end_byte].decode("utf-8", "replace")
        prev = first.get(name)
        if prev is None:
            first[name] = name_node
            first_def[name] = d
            continue
        if facts.is_macro(name) or facts.head_has_macro(d) or (facts.has_include and name.isupper()):
            continue
        from .build_overloads import head_unexplained  # (a second definition: rare)

        if head_unexplained(facts, d) or head_unexplained(facts, first_def[name]):  # (the build's attribute)
            continue
        if _overloads(model, first_def[name], d):
            continue
        if in_focus(d) and _same_arm(facts, prev.start_byte, name_node.start_byte):
            add("CL018", name_node.start_byte, name_node.end_byte, f"redefinition of '{name}'",
                ((prev.start_byte, prev.end_byte, "previous definition is here"),))


_OVERLOADABLE = lazy(rb"\b(?:__)?overloadable(?:__)?\b")  # clang reads both spellings


def _overloads(model: SemanticModel, a: Node, b: Node) -> bool:
    """Two definitions that may both stand: `__attribute__((overloadable))` on each (clang's
    OpenCL C overloading) and parameter types that differ, or that cllint cannot read."""
    if not all(_OVERLOADABLE.search(_head(model, d)) for d in (a, b)):
        return False
    types = []
    for d in (a, b):
        params = model.function_at_node(d).params
        if not all(known(p.type) for p in params):
            return True
        types.append([p.type.render() for p in params])
    return types[0] != types[1]


def _head(model: SemanticModel, definition: Node) -> bytes:
    return model.source[definition.start_byte:head_end(definition)]


def _name(definition: Node) -> Node | None:
    d = definition.child_by_field_name("declarator")
    while d is not None and d.type != "identifier":
        if d.type in ("function_declarator", "pointer_declarator", "parenthesized_declarator",
                      "attributed_declarator"):
            d = d.child_by_field_name("declarator") or (d.named_children[0] if d.named_children else None)
        else:
            return None
    return d
