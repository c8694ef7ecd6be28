"""Programs written in double (issue 29): their host decides, not a guard.

The same reasoning as image_programs.py. A kernel whose parameter or result is `double` data
(`global double2 *`, a `double` value, through a typedef or a macro) cannot even be declared
without fp64: a guard around it only removes the kernel, and the host's `clCreateKernel` fails
instead of the build. When every kernel of a program is such a kernel, fp64 is the program's
requirement (its host checks CL_DEVICE_DOUBLE_FP_CONFIG), not an unguarded use; a file with no
kernel whose helpers take or return double is a fragment of such a program. A program with a
kernel whose head has no double (float data computed in double, an integer kernel) is not: a
guard, with a float fallback or around the double kernels, keeps that kernel building.

Heads only, as for images: the incremental driver re-lints the whole file when a head
changes, so the answer never goes stale between keystrokes. `half` is not read so: a `half *`
parameter is legal without cl_khr_fp16 (vload_half/vstore_half), so a head never forces it.
"""

from __future__ import annotations

import re
from typing import Any

from tree_sitter import Node, Tree

from cllint.analysis.gating.image_programs import ImageProgram, prelude_kernels, program_needing
from cllint.analysis.model.types import Array, Pointer, Scalar, Type, Unknown, Vector
from cllint.analysis.model.walk import head_end

# A double scalar or vector type name (spec 6.3.1, 6.3.2), as written in a prelude's heads.
_DOUBLE_WORD = re.compile(rb"\bdouble(?:2|3|4|8|16)?\b")


def _is_double(t: Type | None) -> bool:
    while isinstance(t, (Pointer, Array)):
        t = t.pointee if isinstance(t, Pointer) else t.elem
    if isinstance(t, Vector):
        t = t.elem
    return isinstance(t, Scalar) and t.name == "double"


_WORD = re.compile(r"[A-Za-z_]\w*")


def _unknown_text(t: Type | None) -> str:
    while isinstance(t, (Pointer, Array)):
        t = t.pointee if isinstance(t, Pointer) else t.elem
    return t.text if isinstance(t, Unknown) else ""


def _names_double(text: str, typedefs: dict[str, Any]) -> bool:
    """A word of an unread type's text that is a typedef of double data."""
    return any(w in typedefs and _is_double(typedefs[w].type) for w in _WORD.findall(text))


def _head_text(definition: Node, text: bytes) -> bytes:
    return text[definition.start_byte:head_end(definition)]


def _macro_double(definition: Node, source: bytes, view: Any) -> bool:
    """A type in the head spelled through an object-like macro that expands to double."""
    if view is None:
        return False
    end = head_end(definition)
    stack = [c for c in definition.children if c.start_byte < end]
    while stack:
        node = stack.pop()
        if node.type == "type_identifier":
            expanded = view.expand_type_macro(source[node.start_byte:node.end_byte].decode("utf-8", "replace"),
                                              node.start_byte)
            if expanded and _DOUBLE_WORD.search(expanded.encode()):
                return True
        elif node.type != "compound_statement":
            stack.extend(node.children)
    return False


def fp64_program(tree: Tree, source: bytes, model: Any, view: Any, dead: Any,
                 before: tuple[bool, bool], guarded: Any = None) -> ImageProgram | None:
    """The file as a program every kernel of which takes or returns double data (or a fragment
    whose helpers do), or None. `model`: the semantic model, whose types read typedefs; a
    definition it does not hold (a second overload) is read by its words, and a type it does
    not know through the view's macros."""
    by_start = {info.definition.start_byte: info for info in model.functions.values()
                if info.definition is not None}
    typedefs = model.index.typedefs

    def needs(definition: Node) -> bool:
        info = by_start.get(definition.start_byte)
        if _DOUBLE_WORD.search(_head_text(definition, source)):
            return True
        if info is not None:
            types = (info.return_type, *(p.type for p in info.params))
            if any(_is_double(t) for t in types):
                return True
            # a type written through a function-like macro (`CP(T2) in`): its words' typedefs
            if any(_names_double(_unknown_text(t), typedefs) for t in types):
                return True
        return _macro_double(definition, source, view)

    return program_needing(tree, dead, before, needs, guarded)


def fp64_prelude(view: Any, file: str) -> tuple[bool, bool]:
    """Whether the sources read before the file define a kernel with no double in its head
    (its words: a typedef there is not resolved, so such a kernel counts as without), and one
    with."""
    return prelude_kernels(view, file, lambda d, text: _DOUBLE_WORD.search(_head_text(d, text)) is not None,
                           "gating.fp64_prelude")
