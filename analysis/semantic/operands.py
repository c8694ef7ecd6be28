"""Operands a C operator cannot take (CL023): `sizeof` of `void`, and arithmetic, bitwise or
comparison operators on values of OpenCL's opaque types (images, samplers, events, queues),
which have no value an operator could read (spec 6.3, the opaque built-in types).
Both as clang-19 words them; only where the operand's type is certain.
"""

from __future__ import annotations

from tree_sitter import Node

from cllint.analysis.model.types import Opaque, Scalar

from .context import Body

# Binary operators that read their operands' values (`,` and the logical ones aside:
# clang-19 reports those differently).
_ARITHMETIC = frozenset({"+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", ">", "<=", ">=", "==", "!="})
# Opaque types that are handles to objects, not numbers (atomics and enum-like types aside)
_HANDLES = ("image", "sampler_t", "event_t", "clk_event_t", "queue_t", "reserve_id_t", "ndrange_t")


def check_sizeof(body: Body, node: Node) -> None:
    """`sizeof(void)`."""
    ty = node.child_by_field_name("type")
    if ty is None or ty.type != "type_descriptor" or ty.child_by_field_name("declarator") is not None:
        return
    base = ty.child_by_field_name("type")
    if base is not None and base.type == "primitive_type" and body.text(base) == "void":
        body.add("CL023", node.start_byte, node.end_byte, "invalid application of 'sizeof' to a void type")


def check_binary(body: Body, node: Node) -> None:
    op = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is None or left is None or right is None or body.text(op) not in _ARITHMETIC:
        return
    # A handle comes from a name, member, element or call, never from an operator: asking
    # that first keeps `x + x + ... + x` linear (certainty walks a whole operand).
    if not (_may_be_handle(body, left) or _may_be_handle(body, right)):
        return
    if not (body.certain(left) and body.certain(right)):
        return
    lt, rt = body.fm.type_of(left), body.fm.type_of(right)
    if not (_handle(lt) or _handle(rt)) or _declared_in_an_arm(body, left) or _declared_in_an_arm(body, right):
        return
    if body.text(op) in _COMPARISONS and _comparable(body, lt, rt, left, right):
        return
    body.add("CL023", node.start_byte, node.end_byte,
             f"invalid operands to binary expression ('{lt}' and '{rt}')")


_COMPARISONS = frozenset({"==", "!=", "<", ">", "<=", ">="})
# clang-19 reads these as pointers: two of one type compare, and a queue compares with a null
# pointer constant (`q == 0`, `q != CLK_NULL_QUEUE`: the spec's invalid queue, 6.15.16).
_POINTER_LIKE = frozenset({"queue_t", "clk_event_t"})
_NULL_NAMES = frozenset({"NULL", "CLK_NULL_QUEUE"})


def _comparable(body: Body, lt: object, rt: object, left: Node, right: Node) -> bool:
    if _handle(lt) and _handle(rt):
        return lt.name == rt.name and lt.name in _POINTER_LIKE  # type: ignore[attr-defined]
    queue, other = (lt, right) if _handle(lt) else (rt, left)
    return queue.name == "queue_t" and _null_constant(body, other)  # type: ignore[attr-defined]


def _null_constant(body: Body, expr: Node) -> bool:
    """An integer constant expression of value 0 (`0`, `0L`, `(1 - 1)`), `NULL` or `CLK_NULL_QUEUE`."""
    from cllint.analysis.preprocessor.expr import ExprError, _const, parse_tokens, tokenize

    text = body.text(expr).strip()
    while text.startswith("(") and text.endswith(")"):
        text = text[1:-1].strip()
    if text in _NULL_NAMES:
        return True
    if any(c.isalpha() and c not in "uUlLxXabcdefABCDEF" for c in text):
        return False  # a name: not a constant this check can read
    try:
        return _const(parse_tokens(tokenize(text))) == 0
    except (ExprError, RecursionError):
        return False


def _may_be_handle(body: Body, expr: Node) -> bool:
    return expr.type in _HANDLE_SOURCES and _handle(body.fm.type_of(expr))


_HANDLE_SOURCES = frozenset({"identifier", "field_expression", "subscript_expression", "call_expression"})


def _declared_in_an_arm(body: Body, expr: Node) -> bool:
    """A name declared inside an `#if` arm (`#ifdef IMG image1d_buffer_t q #else global uchar
    *q #endif`): another arm may give it another type, which the code using it expects."""
    view = body.facts.view
    if view is None:
        return False
    stack = [expr]
    while stack:
        n = stack.pop()
        if n.type == "identifier":
            sym = body.fm.refs.get(n.id)
            decl = getattr(sym, "node", None)
            if decl is not None and view.branch_at(decl.start_byte).parent is not None:
                return True
        stack.extend(n.children)
    return False


def _handle(t: object) -> bool:
    return isinstance(t, Opaque) and t.name.startswith(_HANDLES) and not isinstance(t, Scalar)
