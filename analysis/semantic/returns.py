"""`return` against the function's type (CL019) and non-void functions whose end can be
reached (CL020, a warning as in clang).

Falling off the end is reported only when the end is certainly reachable: a statement whose
completion the file does not show (a macro, a call through an unknown name, a `switch`, a
label some `goto` may reach, an `#if` inside the body) counts as one that never completes.
"""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.model import SymbolKind
from cllint.analysis.model.types import Function, Scalar

from .context import Body, known

_LOOPS = frozenset({"while_statement", "for_statement", "do_statement"})
_NESTED_BREAK_SCOPES = _LOOPS | {"switch_statement"}


def _is_void(t) -> bool:  # noqa: ANN001
    return isinstance(t, Scalar) and t.is_void


def _own_head(body: Body) -> bool:
    """The function's name and return type are written out, not made by a macro."""
    return bool(body.fm.name) and not body.facts.head_has_macro(body.fm.node)


def check_return(body: Body, ret: Node) -> None:
    fm = body.fm
    rt = fm.return_type
    if not known(rt) or isinstance(rt, Function) or ret.has_error or not _own_head(body):
        return
    values = [c for c in ret.named_children if c.type != "comment"]
    if _is_void(rt) and values:
        v = values[0]
        if body.certain(v) and _is_void(fm.type_of(v)):
            return  # `return f();` of a void call: a C extension clang accepts
        if body.certain(v) or v.type == "number_literal":
            body.add("CL019", ret.start_byte, ret.end_byte,
                     f"void function '{fm.name}' should not return a value")
    elif not _is_void(rt) and not values:
        body.add("CL019", ret.start_byte, ret.end_byte,
                 f"non-void function '{fm.name}' should return a value ('{rt.render()}')")


def check_falls_off(body: Body) -> None:
    fm = body.fm
    rt = fm.return_type
    block = fm.node.child_by_field_name("body")
    if block is None or not known(rt) or isinstance(rt, Function) or _is_void(rt) or fm.name == "main" or \
            not _own_head(body):
        return
    if b"goto" in body.source[block.start_byte:block.end_byte]:
        return
    if not _completes(body, block):
        return
    has_return = any(n.type == "return_statement" for n in _descendants(block))
    close = block.children[-1] if block.children and block.children[-1].type == "}" else block
    what = "in all control paths" if has_return else ""
    body.add("CL020", close.start_byte, close.end_byte,
             f"non-void function '{fm.name}' does not return a value{' ' + what if what else ''}")


def _descendants(n: Node):  # noqa: ANN202
    stack = [n]
    while stack:
        x = stack.pop()
        yield x
        stack.extend(x.named_children)


def _completes(body: Body, s: Node) -> bool:
    """The statement certainly can complete normally (its end can be reached)."""
    k = s.type
    if k == "compound_statement":
        return all(_completes(body, c) for c in s.named_children if c.type != "comment")
    if k == "comment":
        return True
    if k in ("declaration", "type_definition"):
        return not _has_unknown(body, s)
    if k == "expression_statement":
        return all(_call_returns(body, c) for c in _descendants(s) if c.type == "call_expression") and \
            not _has_unknown(body, s)
    if k in ("return_statement", "break_statement", "continue_statement", "goto_statement"):
        return False
    if k == "if_statement":
        alt = s.child_by_field_name("alternative")
        cons = s.child_by_field_name("consequence")
        if _constant(body, s.child_by_field_name("condition")) is not None:
            return False  # `if (1)`: leave it
        if alt is None:
            return True
        else_body = alt.named_children[0] if alt.type == "else_clause" and alt.named_children else alt
        return (cons is not None and _completes(body, cons)) or _completes(body, else_body)
    if k in ("while_statement", "for_statement"):
        cond = s.child_by_field_name("condition")
        if cond is None and k == "for_statement":
            return _breaks_out(s)
        value = _constant(body, cond)
        if value is None:
            return not _has_unknown(body, cond) if cond is not None else False
        return value == 0 or _breaks_out(s)
    if k == "do_statement":
        value = _constant(body, s.child_by_field_name("condition"))
        inner = s.child_by_field_name("body")
        if value is not None and value != 0:
            return _breaks_out(s)
        return value == 0 and inner is not None and _completes(body, inner)
    return False  # switch, labels, #if groups, ERROR: unknown


def _breaks_out(loop: Node) -> bool:
    """A `break` of this loop (not of a loop or switch inside it)."""
    inner = loop.child_by_field_name("body")
    stack = [inner] if inner is not None else []
    while stack:
        n = stack.pop()
        if n.type == "break_statement":
            return True
        if n.type in _NESTED_BREAK_SCOPES:
            continue
        stack.extend(n.named_children)
    return False


def _constant(body: Body, cond: Node | None) -> int | None:
    """The value of a loop or `if` condition written as a literal (`1`, `true`), else None."""
    while cond is not None and cond.type in ("parenthesized_expression", "condition_clause"):
        inner = [c for c in cond.named_children if c.type != "comment"]
        cond = inner[0] if len(inner) == 1 else None
    if cond is None:
        return None
    if cond.type == "true":
        return 1
    if cond.type == "false":
        return 0
    if cond.type == "number_literal":
        try:
            return int(body.text(cond).rstrip("uUlL"), 0)
        except ValueError:
            return None
    return None


def _has_unknown(body: Body, n: Node) -> bool:
    """A macro, an unresolved name or unreadable code in `n`: its meaning is not the file's."""
    for x in _descendants(n):
        if x.type == "ERROR" or x.is_missing:
            return True
        if x.type in ("identifier", "type_identifier"):
            name = body.text(x)
            if body.facts.is_macro(name) or (x.type == "identifier" and x.id not in body.fm.refs
                                             and x.parent is not None and x.parent.type != "field_expression"):
                return True
    return False


def _call_returns(body: Body, call: Node) -> bool:
    fn = call.child_by_field_name("function")
    if fn is None or fn.type != "identifier":
        return False
    sym = body.fm.refs.get(fn.id)
    if sym is None:
        return False
    if sym.kind is SymbolKind.FUNCTION:
        info = body.model.index.functions.get(sym.name)
        return info is None or info.attribute("noreturn") is None
    return sym.kind is SymbolKind.BUILTIN
