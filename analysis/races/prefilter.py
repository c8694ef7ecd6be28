"""Cheap necessary conditions for the race check, read before its CFG and dataflow.

Every access the check compares has a base declared in the kernel (a `__local` array, a
shared pointer argument, or what one of those points into) whose declaration carries a
`local` or `global` address-space qualifier (accesses.space_of reads that node). A kernel
whose text holds neither word, with or without `__`, declares no such base, so neither it
nor a helper it calls (followed only through pointers the kernel passes) can race. A word
in a comment or a string only keeps the full check: the filter may say yes wrongly, never no.
"""

from __future__ import annotations

import re
from collections.abc import Container

from tree_sitter import Node

from cllint.analysis.model.walk import nodes_of_kinds

# `get_global_id` and `global_x` are not the qualifier: `_` is a word character. The words
# are found first and their neighbours tested after: a pattern that starts with a lookbehind
# is tried at every byte (0.2 ms of a 1.6 KB kernel, each keystroke: issue 32).
_QUALIFIER_WORD = re.compile(rb"(?:local|global)(?![\w$])")


def may_share(source: bytes, start: int, end: int, spelt: frozenset[bytes] = frozenset()) -> bool:
    """Whether the kernel at source[start:end] may declare shared memory the check follows;
    `spelt`, names the file gives a qualifier (`#define GLOBAL __global`, `typedef __global int
    *gptr`: uniformity/spellings.py)."""
    return _qualifier(source, start, end) or any(_spelt(source, start, end, w) for w in spelt)


def _qualifier(source: bytes, start: int, end: int) -> bool:
    r"""`(?<![\w$])(?:__)?(?:local|global)(?![\w$])` in source[start:end] (the byte before
    `start` read, as a search from `start` reads it; `end` read as the text's end)."""
    m = _QUALIFIER_WORD.search(source, start, end)
    while m is not None:
        at = m.start()
        if not _WORD.match(source, at - 1 if at else 0, at):
            return True  # nothing of a word before it
        if at - 2 >= start and source[at - 2:at] == b"__" and not (at > 2 and _WORD.match(source, at - 3)):
            return True  # `__local`, nothing of a word before the underscores
        m = _QUALIFIER_WORD.search(source, at + 1, end)
    return False


def _spelt(text: bytes, start: int, end: int, word: bytes) -> bool:
    i = text.find(word, start, end)
    while i >= 0:
        if not _WORD.match(text, i - 1 if i else 0, i) and not _WORD.match(text, i + len(word)):
            return True
        i = text.find(word, i + 1, end)
    return False


_WORD = re.compile(rb"[\w$]")


_WRITES = frozenset({"assignment_expression", "update_expression", "call_expression"})
_DECLARATORS = frozenset({"pointer_declarator", "array_declarator"})
_STORED = ("subscript_expression", "pointer_expression", "identifier")
_ATOMIC = ("atomic_", "atom_")  # accesses._use: `&t[i]` passed to one is a write


def may_write(func: Node, defined: Container[str], program: frozenset[bytes] = frozenset(),
              spelt: frozenset[bytes] = frozenset()) -> bool:
    """Whether the kernel `func` may write shared memory the check follows: a store or an
    increment through a subscript or `*` of a name that may point into it, an atomic call,
    or a call of a function the file defines passed such a name (a helper writes only
    through what it is passed, calls._passes_shared, or, in a file that declares
    program-scope `__global` variables, through those: any such call then). Without one, every access the check
    collects is a read, and reads do not race with reads."""
    candidates = nodes_of_kinds(func, _WRITES, ordered=False)
    if not candidates:
        return False
    bases: set[bytes] | None = None
    for n in candidates:
        if n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is None or fn.type != "identifier":
                continue  # not followed by the check either (callee_name)
            name = fn.text.decode("utf-8", "replace") if fn.text else ""
            if name.startswith(_ATOMIC) or name.startswith(("vstore", "async_work_group")):  # (they write too)
                return True
            if name not in defined:
                continue
            if program:
                return True  # a helper may name a program-scope `__global` variable (calls.py)
            target = n.child_by_field_name("arguments")
        else:
            target = n.child_by_field_name("left" if n.type == "assignment_expression" else "argument")
            # `(t[i])`, `t[i].x`, `p->f`: the store is into what is subscripted or pointed at
            while target is not None and (target.type == "parenthesized_expression" and target.named_child_count == 1
                                          or target.type == "field_expression"):
                target = target.named_children[0]
            if target is not None and target.type == "call_expression":
                return True  # a store into a call: a macro for an element (races/accessor_macros.py)
            if target is None or target.type not in _STORED:
                continue
        if bases is None:
            bases = _bases(func, spelt) | program  # (and the program-scope `__global` variables it names)
        if target is not None and _mentions(target, bases):
            return True
    return False


def _bases(func: Node, spelt: frozenset[bytes] = frozenset()) -> set[bytes]:
    """Names the kernel declares that frames.Frame.target may follow: every pointer (a
    shared argument, or a private pointer derived from one), every array declared with
    a `local`/`global` word (a `__local` array; private arrays are not followed), and every
    scalar declared with one (a `__local` scalar)."""
    out: set[bytes] = set()
    # (a parameter of a typedef'd pointer type, `gptr A`, has no pointer declarator: read it here)
    for decl in nodes_of_kinds(func, _DECLARATIONS_AND_PARAMETERS if spelt else _DECLARATIONS, ordered=False):
        if decl.text is not None and _qualified(decl.text, spelt):
            for d in decl.children_by_field_name("declarator"):
                d = d.child_by_field_name("declarator") if d.type == "init_declarator" else d
                if d is not None and d.type == "identifier" and d.text:
                    out.add(d.text)
    for d in nodes_of_kinds(func, _DECLARATORS, ordered=False):
        if d.type == "array_declarator":
            decl = d.parent
            while decl is not None and decl.type not in ("declaration", "parameter_declaration"):
                decl = decl.parent
            text = decl.text if decl is not None else None
            if text is not None and not _qualified(text, spelt):
                continue
        ident = d.child_by_field_name("declarator")
        while ident is not None and ident.type != "identifier":
            ident = ident.child_by_field_name("declarator")
        if ident is not None and ident.text:
            out.add(ident.text)
    return out | _holders(func, out)


def _holders(func: Node, bases: set[bytes]) -> set[bytes]:
    """Private structs given one of `bases` in a field (`s.p = A;`, `ref_t s = { A, 1 };`): a
    store through the field (`s.p[i] = v`, a helper passed `s` or `&s`) writes what it points to."""
    out: set[bytes] = set()
    for n in nodes_of_kinds(func, _HOLDING, ordered=False):
        if n.type == "assignment_expression":
            left, value = n.child_by_field_name("left"), n.child_by_field_name("right")
            while left is not None and left.type == "field_expression":
                left = left.child_by_field_name("argument")
        else:
            left, value = n.child_by_field_name("declarator"), n.child_by_field_name("value")
            if value is None or value.type != "initializer_list":
                continue
        items = value.named_children if value is not None and value.type == "initializer_list" else [value]
        if left is not None and left.type == "identifier" and left.text and value is not None \
                and left != n.child_by_field_name("left") and any(_points(i, bases) for i in items):
            out.add(left.text)
    return out


def _points(value: Node | None, bases: set[bytes]) -> bool:
    """`A`, `A + i`, `i + A`, `&A[i]` (or a cast of one) of a name in `bases`: a pointer, not a
    value loaded through one (`v.x = a[0]`)."""
    while value is not None and value.type in ("parenthesized_expression", "cast_expression") \
            and value.named_children:
        value = value.child_by_field_name("value") or value.named_children[-1]
    if value is None:
        return False
    if value.type == "identifier":
        return value.text in bases
    if value.type == "binary_expression":
        return _points(value.child_by_field_name("left"), bases) or _points(value.child_by_field_name("right"), bases)
    if value.type == "pointer_expression" and value.child_by_field_name("operator") is not None \
            and value.child_by_field_name("operator").type == "&":
        arg = value.child_by_field_name("argument")
        return arg is not None and arg.type == "subscript_expression" \
            and _points(arg.child_by_field_name("argument"), bases)
    return False


def _qualified(text: bytes, spelt: frozenset[bytes]) -> bool:
    return _qualifier(text, 0, len(text)) or any(_spelt(text, 0, len(text), w) for w in spelt)


def _mentions(node: Node, names: set[bytes]) -> bool:
    """Some identifier under `node` is one of `names` (what a pointer expression's target
    is rooted at: `p`, `p + i`, `&t[i]`, `*(q - 1)`)."""
    if not names:
        return False
    return any(n.text in names for n in nodes_of_kinds(node, _IDENTIFIER, ordered=False))


_IDENTIFIER = frozenset({"identifier"})
_HOLDING = frozenset({"assignment_expression", "init_declarator"})
_DECLARATIONS = frozenset({"declaration"})
_DECLARATIONS_AND_PARAMETERS = frozenset({"declaration", "parameter_declaration"})
