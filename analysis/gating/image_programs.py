"""Programs that need images (issue 29): their host decides, not a guard.

A kernel whose parameter is an image cannot be built without image support; no guard inside
it helps, only the host can (CL_DEVICE_IMAGE_SUPPORT). When every kernel of a program takes
an image, the base image feature is the program's requirement, not an unguarded use: a guard
would only empty the program. A file with no kernel whose functions take images (a fragment
of image helpers) is read the same way. A program with a kernel that takes no image is not:
a guard around its image kernels keeps the others building.

A program of several sources (the project model's prelude: sources a host joins before the
file, an includer's text before its `#include`) is judged with the kernels those sources
define too: a kernel without images there makes the program mixed, and an image kernel there
has had the program's note already. The sources after the file are not seen.

A parameter passed by value whose type is a macro the host supplies with no value cllint can
read (a template's `IMAGE_src_TYPE src`, host_templates.py) may be an image: the host decides,
so its function counts as one that may take an image, and guards a program of such kernels
would need are the host's choice, not reported (issue 29, item 3). The note is made only
where the program uses images at all.

Read off function heads only, which the incremental driver treats as the skeleton (a change
there re-lints the whole file), so the answer never goes stale between keystrokes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.database import current
from cllint.analysis.model.walk import is_kernel, name_node
from cllint.analysis.toplevel import CONTAINERS, FUNCTION_IDS, Items

# Every image type (spec 6.3.1, "Other Built-in Data Types"): 1D, 2D, 3D, arrays, buffers,
# depth and MSAA; each needs the base feature, the last two more besides.
_IMAGE_TYPE = re.compile(r"^image[123]d\w*_t$")


class ImageProgram:
    """The first function taking an image (its name's span), and whether the program has a
    kernel at all (False: a fragment of helpers)."""

    __slots__ = ("start", "end", "has_kernels", "noted")

    def __init__(self, start: int, end: int, has_kernels: bool, noted: bool = True) -> None:
        self.start = start
        self.end = end
        self.has_kernels = has_kernels
        self.noted = noted  # False: a source read before the file has the program's note


def _definitions(tree: Tree) -> list[Node]:
    out: list[Node] = []
    stack = list(reversed(tree.root_node.children))
    while stack:
        node = stack.pop()
        if node.type == "function_definition":
            out.append(node)
        elif node.type in CONTAINERS:
            stack.extend(reversed(node.children))
    return out


def _kernels_or_not(tree: Tree, items: Items | None) -> list[tuple[Node, bool]]:
    """`_definitions(tree)`, each with whether it is a kernel; read off `items` (the same
    definitions in the same order: the same containers) where they are the tree's."""
    if items is None or items.tree is not tree:
        return [(d, is_kernel(d)) for d in _definitions(tree)]
    out = []
    nodes = items.nodes
    for k, item in enumerate(items.items):
        if item.kind not in FUNCTION_IDS:
            continue
        kernel = item.facts.get("gating.kernel")
        if kernel is None:
            kernel = item.facts["gating.kernel"] = is_kernel(nodes[k])
        out.append((nodes[k], kernel))
    return out


def _takes_image(definition: Node, source: bytes, view: Any) -> bool:
    """A parameter of an image type, written so or through an object-like macro, or one by value
    whose type the host supplies (it may be an image)."""
    declarator = definition.child_by_field_name("declarator")
    while declarator is not None and declarator.type != "function_declarator":
        declarator = declarator.child_by_field_name("declarator")
    params = declarator.child_by_field_name("parameters") if declarator is not None else None
    if params is None:
        return False
    for p in params.named_children:
        if p.type != "parameter_declaration":
            continue
        t = p.child_by_field_name("type")
        if t is None:
            continue
        word = source[t.start_byte:t.end_byte].decode("utf-8", "replace")
        if _IMAGE_TYPE.match(word):
            return True
        if t.type == "type_identifier" and view is not None:
            expanded = view.expand_type_macro(word, t.start_byte)
            if expanded and any(_IMAGE_TYPE.match(w) for w in expanded.split()):
                return True
            if not expanded and _not_pointer(p) and word in getattr(view, "host_macros", ()):
                return True  # a type the host supplies: an image if it says so
    return False


# Whether a head takes an image, by (head text, its node count, macros in force, the host's
# macros): the database's "gating.takes_image". A keystroke re-read every head of the file
# (67 in darktable's basic.cl, ~0.3 ms); an edit inside a body leaves them as they were.
_TAKES_IMAGE_MAX = 8192


def _takes_image_kept(definition: Node, source: bytes, view: Any, table: Any) -> bool:
    """`_takes_image`, read once per head: it reads the head alone (its parameters' types, the
    object-like macros in force there, which the view's macro state digests). `table`: the
    memo, None for a view without macro states."""
    body = definition.child_by_field_name("body")
    if table is None or body is None:
        return _takes_image(definition, source, view)
    # the node count: with a syntax error elsewhere, the same text can parse otherwise
    key = (source[definition.start_byte:body.start_byte], definition.descendant_count - body.descendant_count,
           view.macro_state_at(definition.start_byte), getattr(view, "host_macros", frozenset()))
    got = table.get(key)
    if got is None:
        got = table.put(key, _takes_image(definition, source, view))
    return got


def _not_pointer(param: Node) -> bool:
    d = param.child_by_field_name("declarator")
    return d is None or d.type == "identifier"


def image_program(tree: Tree, source: bytes, view: Any, dead: Any,
                  before: tuple[bool, bool] = (False, False), items: Items | None = None,
                  edited: bool = False) -> ImageProgram | None:
    """The file as a program that needs images, or None. `dead(offset)`: code no build
    compiles (`#if 0`), whose kernels are not the program's. `before`: whether the sources read
    before it define a kernel without images, and one with (`prelude_kernels`). `items`: see
    `program_needing`. `edited`: an editor's buffer, linted again after each edit (the answers
    of every definition are kept for the next tree: `_carried`)."""
    state = getattr(view, "macro_state_at", None)
    table = current().table("gating.takes_image", _TAKES_IMAGE_MAX) if state is not None else None
    # What the answers read besides the file's items: every macro (the headers' too), the host's
    # and the directives (position-free: moved with an edit they mean the same).
    carry = None if state is None or items is None or not edited else (
        "gating.image_program", (state(1 << 62), getattr(view, "host_macros", frozenset()), before,
                                 tuple((d.kind, d.keyword, d.name, d.args, d.path) for d in view.directives)))
    return program_needing(tree, dead, before, lambda d: _takes_image_kept(d, source, view, table), items=items,
                           carry=carry)


def program_needing(tree: Tree, dead: Any, before: tuple[bool, bool],
                    needs: Callable[[Node], bool],
                    guarded: Callable[[int], bool] | None = None, items: Items | None = None,
                    carry: tuple[str, Any] | None = None) -> ImageProgram | None:
    """The file as a program every live kernel of which needs a feature by its head
    (`needs(definition)`), or, with no kernel, a fragment with a helper that does; None when a
    kernel (here or in the sources before, `before[0]`) does not, or when `guarded(offset)`
    says one that does sits under a guard for the feature: its author treats it as optional.
    `items`: the tree's matched items (toplevel.items_of): the definitions are theirs, and
    whether each is a kernel is kept on its item (a keystroke asks the edited one's alone).
    `carry`: (name, what `dead` and `needs` read besides the items) to keep each definition's
    answers from the last tree of the file (`_carried`); not with `guarded`."""
    if before[0]:
        return None
    first: Node | None = None
    kernels = False
    helper: Node | None = None
    if carry is not None and guarded is None and items is not None and items.tree is tree:
        for k, was_dead, kernel, need in _carried(items, carry, dead, needs):
            if was_dead:
                continue
            if kernel:
                kernels = True
                if not need:
                    return None  # a kernel without the feature: guards keep it building
                if first is None:
                    first = items.nodes[k]
            elif helper is None and need:
                helper = items.nodes[k]
    else:
        for definition, kernel in _kernels_or_not(tree, items):
            if dead(definition.start_byte):
                continue
            if kernel:
                kernels = True
                if not needs(definition):
                    return None  # a kernel without the feature: guards keep it building
                if guarded is not None and guarded(definition.start_byte):
                    return None  # the program's own guard: the feature is optional to it
                if first is None:
                    first = definition
            elif helper is None and needs(definition):
                helper = definition
    if before[1]:
        return ImageProgram(0, 0, True, noted=False)
    chosen = first if kernels else helper
    if chosen is None:
        return None
    name = name_node(chosen) or chosen
    return ImageProgram(name.start_byte, name.end_byte, kernels)


def _carried(items: Items, carry: tuple[str, Any], dead: Any,
             needs: Callable[[Node], bool]) -> list[tuple[int, bool, bool, bool | None]]:
    """(item index, compiled out, kernel, needs the feature: None when compiled out) of each
    definition, in order. The last tree's answers stand while every item but one was carried
    over (the same text and node count) and what else they read (`carry[1]`) is the same: then
    no directive moved into or out of an arm, and the macros in force at every head are what
    they were. The one item not carried is asked again (issue 32: 67 heads asked each keystroke)."""
    name, key = carry
    prev = items.previous.get(name) if items.previous is not None else None
    fresh = items.fresh
    if prev is not None and prev[0] == key and len(fresh) <= 1:
        out = [a for a in prev[1] if not fresh or a[0] != fresh[0]]
        if fresh and items.items[fresh[0]].kind in FUNCTION_IDS:
            k = fresh[0]
            out.append(_answers(k, items, dead, needs))
            out.sort(key=_FIRST)
    else:
        out = [_answers(k, items, dead, needs) for k, item in enumerate(items.items) if item.kind in FUNCTION_IDS]
    items.derived[name] = (key, out)
    return out


def _answers(k: int, items: Items, dead: Any, needs: Callable[[Node], bool]) -> tuple[int, bool, bool, bool | None]:
    definition, item = items.nodes[k], items.items[k]
    kernel = item.facts.get("gating.kernel")
    if kernel is None:
        kernel = item.facts["gating.kernel"] = is_kernel(definition)
    if dead(definition.start_byte):
        return k, True, kernel, None
    return k, False, kernel, needs(definition)


def _FIRST(answer: tuple) -> int:  # noqa: N802 - a sort key
    return answer[0]


def prelude_kernels(view: Any, file: str, needs: Callable[[Node, bytes], bool] | None = None,
                    memo_name: str = "gating.image_prelude") -> tuple[bool, bool]:
    """Whether the sources the file's program reads before it (the view's prelude) define a
    kernel without the feature in its head (`needs(definition, text)`; default: an image
    parameter), and one with."""
    from cllint.analysis.database import current
    from cllint.analysis.preprocessor.view_data import resolve_include

    resolver = getattr(view, "include_resolver", None)
    if resolver is None:
        return False, False
    needs = needs or (lambda d, text: _takes_image(d, text, None))
    memo = current().table(memo_name, _PRELUDE_MAX)
    plain = images = False
    for d in getattr(view, "directives", ()):
        if d.keyword != "prelude" or d.path is None:
            continue
        got = resolve_include(resolver, d.path, False, file)
        if got is None or b"kernel" not in got[1]:
            continue
        kinds = memo.get(got[1])
        if kinds is None:
            kinds = memo.put(got[1], _kernel_kinds(got[1], needs))
        plain, images = plain or kinds[0], images or kinds[1]
    return plain, images


_PRELUDE_MAX = 64


def _kernel_kinds(text: bytes, needs: Callable[[Node, bytes], bool]) -> tuple[bool, bool]:
    from cllint.grammar import parse

    tree = parse(text)
    kinds = [needs(d, text) for d in _definitions(tree) if is_kernel(d)]
    return (not all(kinds)), any(kinds)
