"""Parameters of a function head written once per `#if` arm.

    #ifdef USE_IMAGE
    kernel void g(image2d_t gx, int m) {
    #else
    kernel void g(global float *gx, int m, int width) {
    #endif

The grammar reads the first arm's head and leaves the others as skipped text at the start of
the body, which may use any arm's parameters (the default build often takes the `#else`
one). The names those lists declare are read here so that the body's uses of them are not
"undeclared"; their types are left unknown, since which arm a build takes is the build's.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from cllint.grammar import parse
from cllint.analysis.lazy_re import lazy

_DIRECTIVE = lazy(rb"^[ \t]*#[ \t]*(?:elif|else|elifdef|elifndef)\b[^\n]*\n", re.M)
_END = lazy(rb"^[ \t]*#[ \t]*endif\b", re.M)


def alternative_parameter_names(body: Node, source: bytes) -> list[str]:
    """Names declared by the parameter lists in the skipped arms that open `body`."""
    first = next((c for c in body.named_children if c.type != "comment"), None)
    if first is None or first.type != "preproc_skipped":
        return []
    text = source[first.start_byte:first.end_byte]
    if _DIRECTIVE.match(text) is None:
        return []
    end = _END.search(text)
    names: list[str] = []
    for arm in _DIRECTIVE.split(text[:end.start() if end else len(text)]):
        arm = arm.strip()
        if arm.endswith(b"{") and b"(" in arm:
            names.extend(n for n in _parameters(arm + b"}") if n not in names)
    return names


def _parameters(head: bytes) -> list[str]:
    root = parse(head).root_node
    definition = next((c for c in root.named_children if c.type == "function_definition"), None)
    declarator = definition.child_by_field_name("declarator") if definition is not None else None
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params is None:
        return []
    out = []
    for p in params.named_children:
        if p.type != "parameter_declaration":
            continue
        d = p.child_by_field_name("declarator")
        while d is not None and d.type != "identifier":
            d = d.child_by_field_name("declarator")
        if d is not None:
            out.append(head[d.start_byte:d.end_byte].decode("utf-8", "replace"))
    return out
