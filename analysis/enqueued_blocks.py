"""Blocks handed to `enqueue_kernel` (OpenCL C 2.0, 6.13.17.2): the block is the body of a child
launch, run by the work-items of the ND-range it is enqueued with, not by the work-item that
enqueues it. A call inside one is no call of the enclosing function's (no recursion, CL407),
and a barrier it reaches is not under the enqueuer's branches (CL201, CL203)."""

from __future__ import annotations

from tree_sitter import Node

_ENQUEUE = frozenset({"enqueue_kernel"})


def enqueued_block(node: Node) -> bool:
    """Whether `node` is a block literal written as an argument of `enqueue_kernel`."""
    if node.type != "block_literal":
        return False
    args = node.parent
    call = args.parent if args is not None and args.type == "argument_list" else None
    fn = call.child_by_field_name("function") if call is not None and call.type == "call_expression" else None
    return fn is not None and fn.type == "identifier" and fn.text is not None and fn.text.decode() in _ENQUEUE


def in_enqueued_block(node: Node) -> bool:
    """Whether `node` lies in a block handed to `enqueue_kernel` (up to its function)."""
    n = node.parent
    while n is not None and n.type != "function_definition":
        if n.type == "block_literal" and enqueued_block(n):
            return True
        n = n.parent
    return False
