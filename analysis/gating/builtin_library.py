"""A file that implements built-in functions: what its definitions' heads need is the device's.

A built-in library (libclc, PoCL's kernel library) defines the catalogue's built-in functions
for one device: `int get_image_width(image2d_t image) { ... }` is compiled only for a device
with images, as the built-in itself exists only there. The requirement such a definition's
head carries (its parameter and return types, their qualifiers), where some overload of the
built-in carries it too, is the file's premise, not an unguarded use: CL301 leaves its uses
in the file alone. Other requirements stay (an unguarded `double` beside `read_imagef`), and
so do declarations (no body: nothing implemented) and helpers with names of their own.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from tree_sitter import Node

from ..catalogue import catalogue
from ..features import DNF
from ..model.walk import name_node
from ..toplevel import FUNCTION_IDS, Items
from .use import Use

# Top-level nodes whose children are top-level items too: a definition under `#ifdef`.
_CONTAINERS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef",
                         "linkage_specification", "declaration_list"})
# Words of a catalogue parameter type that are not the type's name: 'read_only image2d_t',
# 'const __global float *'.
_QUALIFIERS = frozenset({"const", "volatile", "restrict", "read_only", "write_only", "read_write",
                         "__read_only", "__write_only", "__read_write", "global", "local", "constant",
                         "private", "generic", "__global", "__local", "__constant", "__private",
                         "__generic", "unsigned", "signed", "struct", "enum", "*"})


def library_requirements(root: Node, uses: Iterable[Use], items: Items | None = None) -> frozenset[DNF]:
    """The requirements the file's definitions of built-in functions carry in their heads.
    `items`: the tree's matched items (toplevel.items_of), whose carried heads are not read
    again (see `builtin_heads`)."""
    heads = builtin_heads(root, items)
    if not heads:
        return frozenset()
    out: set[DNF] = set()
    for use in uses:
        if use.requires and any(s <= use.start < e and use.requires in _needs_of(name) for name, s, e in heads):
            out.add(use.requires)
    return frozenset(out)


def builtin_heads(root: Node, items: Items | None = None) -> list[tuple[str, int, int]]:
    """(name, start, end of head) of each top-level function definition named as a built-in.
    With `items` (of `root`'s tree), each definition's answer is kept on its item, relative to
    where it starts: a keystroke reads the edited item's alone (67 heads of darktable's
    basic.cl were read on every keystroke)."""
    if items is None or items.tree.root_node != root:
        return list(_builtin_heads(root))
    out = []
    nodes, starts = items.nodes, items.starts
    for k, item in enumerate(items.items):
        if item.kind not in FUNCTION_IDS:
            continue
        kept = item.facts.get("gating.builtin_head")
        if kept is None:
            got = _builtin_head(nodes[k])
            kept = item.facts["gating.builtin_head"] = (got[0], got[2] - got[1]) if got is not None else False
        if kept:
            out.append((kept[0], starts[k], starts[k] + kept[1]))
    return out


def _builtin_heads(root: Node) -> Iterable[tuple[str, int, int]]:
    """(name, start, end of head) of each top-level function definition named as a built-in."""
    stack = list(reversed(root.named_children))
    while stack:
        node = stack.pop()
        if node.type in _CONTAINERS:
            stack.extend(reversed(node.named_children))
            continue
        if node.type != "function_definition":
            continue
        got = _builtin_head(node)
        if got is not None:
            yield got


def _builtin_head(node: Node) -> tuple[str, int, int] | None:
    """A function definition's (name, start, end of head) if it is named as a built-in."""
    body = node.child_by_field_name("body")
    named = name_node(node)
    name = named.text.decode() if named is not None and named.text else None
    if body is not None and name is not None and catalogue().function(name) is not None:
        return name, node.start_byte, body.start_byte
    return None


@cache
def _needs_of(name: str) -> frozenset[DNF]:
    """Every requirement an overload of the built-in carries: its own, and its parameter and
    return types' (the catalogue keeps a type's requirement on the type)."""
    fn = catalogue().function(name)
    if fn is None:
        return frozenset()
    out: set[DNF] = set()
    for overload in fn.overloads:
        own = fn.overload_requires(overload)
        if own:
            out.add(own)
        for spelled in (overload.returns, *(p.type for p in overload.params)):
            words = [w for w in spelled.replace("*", " * ").split() if w not in _QUALIFIERS]
            t = catalogue().type(words[-1]) if words else None
            if t is not None and t.requires:
                out.add(t.requires)
    return frozenset(out)
