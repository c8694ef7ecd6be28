"""Overload sets a file's build declares out of sight (issue 29): a built-in library defines one
name many times (`_CL_OVERLOADABLE char2 convert_char2(uchar2 x)`, one per argument type) with a
word before the name that the build defines, by `-D` or a force-included header, as
`__attribute__((overloadable))`. clang stops at such a word unless the build defines it, so a
name defined twice (in one `#if` arm) behind an unexplained or macro word is an overload set: a
call picks among its definitions, not the last one read."""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node

from cllint.analysis.lazy_re import lazy
from cllint.analysis.model.walk import name_node

_WORD = lazy(r"[A-Za-z_]\w*")
_ATTRIBUTE = lazy(r"__attribute__\s*\(\(.*?\)\)", re.S)
_BUILTIN_TYPE = lazy(r"^(?:u?(?:char|short|int|long)|float|double|half|bool|size_t|ptrdiff_t|u?intptr_t)"
                           r"(?:2|3|4|8|16)?$")
_OPAQUE_TYPES = frozenset({"event_t", "sampler_t", "queue_t", "clk_event_t", "ndrange_t", "reserve_id_t",
                           "uint", "uchar", "ushort", "ulong"})


def head_unexplained(facts: Any, definition: Node) -> bool:
    """A word before the function's name that no keyword, built-in type, typedef, tag or header
    of the file explains (`OVL float f(float x)` built with `-DOVL=...`)."""
    name = name_node(definition)
    if name is None:
        return False
    # Here, not at import: the module is clang-19's `__has_*` tables (100 KB), which a file
    # whose heads this never reads (most) need not load (issue 32).
    from cllint.analysis.preprocessor.clang19_has import KEYWORDS

    model = facts.model
    head = _ATTRIBUTE.sub(" ", model.source[definition.start_byte:name.start_byte].decode("utf-8", "replace"))
    for word in _WORD.findall(head):
        if word in KEYWORDS or word in _OPAQUE_TYPES or _BUILTIN_TYPE.match(word):
            continue
        if word in model.typedefs or word in model.tags:
            continue
        if facts.headers is not None and facts.has_include and facts.headers.could_declare(word):
            continue
        return True
    return False


def build_overloads(facts: Any) -> frozenset[str]:
    """Names defined more than once in one `#if` arm behind a word the build explains (a macro or
    an unexplained word): an overload set."""
    model = facts.model
    view = facts.view
    seen: dict[str, list[Node]] = {}
    for d, name in model.definition_names():
        if name is not None:
            seen.setdefault(name, []).append(d)
    out: set[str] = set()
    for name, defs in seen.items():
        if len(defs) < 2 or not any(facts.head_has_macro(d) or head_unexplained(facts, d) for d in defs):
            continue
        arms = [view.branch_at(d.start_byte) if view is not None else None for d in defs]
        if any(arms.count(a) > 1 for a in arms):
            out.add(name)
    return frozenset(out)
