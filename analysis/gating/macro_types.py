"""Gated types spelled through an object-like macro: `#define real double` then `real x;`.

The tree holds `real`, a type name; the compiler sees `double` at that place (clang-19
reports "use of type 'double' requires ... support" there, with a note on the macro). The
use is placed on the macro name where it is used, and remembers where the macro was
defined, so that a guard around the `#define` counts as well as one around the use
(`#ifdef cl_khr_fp64` / `#define real double` / `#endif`).
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node, Tree

from ..catalogue import catalogue
from ..features import DNF, INT64, Version
from ..model.walk import nodes_of_kinds
from . import tables
from .uses import Use, _item, _names_no_half_value, _plain_type, _strip, _version

_KINDS = frozenset({"type_identifier"})


def _word_need(word: str) -> tuple[Version | None, DNF] | None:
    """What one type word of a macro body needs, as `on_primitive_type` would judge it."""
    if word == "long":
        return None, ((INT64,),)
    if _plain_type(word.encode()):
        return None
    if word.startswith("half"):
        return None, tables.FP16
    if word.startswith("ulong"):
        return None, ((INT64,),)
    t = catalogue().type(word)
    if t is None:
        return None
    return _version(t.since), _strip(t.requires)


def _gated_words(body: str) -> bool:
    """A cheap first test on a macro body: some word of it is a gated type."""
    return any(_word_need(w) is not None for w in body.replace("*", " ").split())


def macro_type_uses(tree: Tree, source: bytes, view: Any, file: str,
                    focus: list[tuple[int, int]] | None = None) -> list[Use]:
    """Uses of gated types that reach the code through object-like macros of this file.
    Never raises on user source; [] without a view."""
    if view is None:
        return []
    names = {m.name for m in view.macro_definitions()
             if m.params is None and m.span.file == file and _gated_words(m.body)}
    if not names:
        return []  # most files: no macro spells a gated type
    out: list[Use] = []
    wanted = {n.encode() for n in names}
    for node in nodes_of_kinds(tree.root_node, _KINDS, ordered=False, ranges=focus):
        raw = source[node.start_byte:node.end_byte]
        if raw not in wanted:
            continue
        name = raw.decode()
        macro = view.macro_at(name, node.start_byte)
        words = view.expand_type_macro(name, node.start_byte)
        if macro is None or words is None:
            continue
        for word in dict.fromkeys(words.split()):  # once per word, in order
            need = _word_need(word)
            if need is None or (word.startswith("half") and _names_no_half_value(node)):
                continue
            since, requires = need
            if since is None and not requires:
                continue
            out.append(Use(node.start_byte, node.end_byte, "type", word, since, requires, None, _item(node),
                           detail=f" through macro '{name}'", defined_at=macro.span.start))
    out.sort(key=lambda u: (u.start, u.end))
    return out
