"""Unknown type names (CL025): a word in a type's place that no typedef in scope, built-in
type, macro or readable header declares, and that is a near miss of a typedef or built-in type
("did you mean"), used at most twice in the file: a name used as a type throughout a file
with nothing declared near its spelling is the host's (`-Dreal=float`), not a typo.

Precision first, as for undeclared names: a file with an include cllint cannot read says
nothing (any type may come from there), and so do words spelled like a host's `-D` macro
(`REAL x;`, `DTYPE *p`: all capitals), vendor and reserved names (`__fp16`), struct, union and
enum tags (`struct S *p` may name an incomplete type), and anything in broken code.
"""

from __future__ import annotations

import re

from collections.abc import Callable, Iterable
from functools import lru_cache

from tree_sitter import Node

from cllint.analysis.model import SemanticModel
from cllint.analysis.model.types import OPAQUE_PREFIXES, SCALAR_NAMES, VECTOR_ELEMENTS, VECTOR_WIDTHS, builtin_named

from .context import VENDOR_PREFIXES, FileFacts

_TAGS = frozenset({"struct_specifier", "union_specifier", "enum_specifier"})
# Built-in type names clang's OpenCL header also knows, beside the model's (for suggestions).
_OPAQUE = ("image1d_t", "image1d_array_t", "image1d_buffer_t", "image2d_t", "image2d_array_t", "image3d_t",
           "image2d_depth_t", "image2d_array_depth_t", "sampler_t", "event_t", "clk_event_t", "queue_t",
           "ndrange_t", "reserve_id_t")

Add = Callable[[str, int, int, str, tuple[tuple[int, int, str], ...]], None]


def check_type_names(facts: FileFacts, model: SemanticModel, captured: Iterable[list[Node]], add: Add) -> None:
    """Every type name in `captured`: what a query for (at least) type names and ERROR nodes
    found under each function body, head and file-level declaration."""
    if facts.unread_include:
        return
    seen: set[int] = set()  # a definition inside a file-level `#if` is under both
    uses: dict[str, int] = {}  # occurrences in the file, by name
    for found in captured:
        broken = [(n.start_byte, n.end_byte) for n in found if n.type == "ERROR"]
        for n in found:
            if n.type != "type_identifier" or n.id in seen or any(s <= n.start_byte < e for s, e in broken):
                continue
            seen.add(n.id)
            _check(facts, model, n, add, uses)


def _check(facts: FileFacts, model: SemanticModel, n: Node, add: Add, uses: dict[str, int]) -> None:
    name = model.source[n.start_byte:n.end_byte].decode("utf-8", "replace")
    if name in model.index.typedefs or builtin_named(name) is not None or _quiet(facts, name):
        return
    parent = n.parent
    if parent is None or parent.has_error or (parent.type in _TAGS and parent.child_by_field_name("name") == n):
        return
    fm = model.enclosing_function(n)
    if fm is not None and n.id in fm.refs:
        return  # a typedef of the enclosing function's own
    if model.scope_at(n.start_byte).lookup(name) is not None:
        return  # a variable: `a*b;` read as a declaration (C's own ambiguity, which tree-sitter guesses)
    # A name the file uses as a type again and again, with no declared type near its
    # spelling, is the host's (`-Dreal=float`, `-DDtype=half`): only a lone near miss is a typo.
    if _uses(model.source, name, uses) > _MAX_TYPO_USES:
        return  # counted first: the suggestion's edit distances cost more
    from .suggest import closest  # (an unknown type: rare)

    suggestion = closest(name, [*model.index.typedefs, *_builtin_names()])
    if suggestion is None:
        return
    add("CL025", n.start_byte, n.end_byte, f"unknown type name '{name}'; did you mean '{suggestion}'?", ())


_MAX_TYPO_USES = 2


def _uses(source: bytes, name: str, counted: dict[str, int]) -> int:
    if name not in counted:
        counted[name] = len(re.findall(rb"\b" + re.escape(name.encode()) + rb"\b", source))
    return counted[name]


def _quiet(facts: FileFacts, name: str) -> bool:
    """Names something other than the file's declarations may give a meaning."""
    return (facts.is_macro(name) or name.upper() == name or name.startswith(VENDOR_PREFIXES)
            or facts.header_quiet(name))


@lru_cache(maxsize=1)
def _builtin_names() -> tuple[str, ...]:
    names = [n for n in SCALAR_NAMES if n != "void"]
    names += [f"{e}{w}" for e in VECTOR_ELEMENTS for w in VECTOR_WIDTHS]
    names += [n for n in _OPAQUE if n.startswith(OPAQUE_PREFIXES)]
    return tuple(names)
