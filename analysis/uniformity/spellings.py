"""The kernel specifier and address-space qualifiers spelt another way: through an object-like
macro (`#define KERNEL __kernel`, `#define GLOBAL __global`), a typedef of a pointer
(`typedef __global int *gptr`) or a typedef of a qualified element (`typedef __global int gint`).

The grammar reads a macro's name before a declaration as a `macro_modifier` and a typedef's name
as a type, so neither says what the declaration is: `KERNEL void k(GLOBAL int *A)` would be a
plain function of a private pointer. A macro counts only where its whole body is one of those
words (a body with more, `__kernel __attribute__((...))`, is not read), and only the definition in
force where it is used (`view.macro_at`: an `#ifdef` arm the preprocessor drops is no definition),
the file's own or an included header's (the view's definitions; without a view, the file's).
A typedef counts where it is a pointer (one `*`) to a type qualified with the space, or that
qualified type itself (`gint *p` points into `__global`, `lfloat t[16]` is a `__local` array), at
the top level of the file. One `Spellings` per tree, read from the top level only: files with neither
a `#define` nor a `typedef` pay nothing.
"""

from __future__ import annotations

from typing import Any

from tree_sitter import Node

_WORDS = {"__kernel": "kernel", "kernel": "kernel", "__global": "global", "global": "global",
          "__local": "local", "local": "local", "__constant": "constant", "constant": "constant",
          "__private": "private", "private": "private", "__generic": "generic", "generic": "generic"}
SPACES = frozenset({"global", "local", "constant", "private", "generic"})
_BLOCKS = frozenset({"preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef"})


def _definitions(view: Any) -> list[Any] | None:
    """Every `#define` the preprocessor view read (the file's and its includes'); None without one."""
    if view is None:
        return None
    try:  # the preprocessor view is someone else's code: never stop the rules over it
        return list(view.macro_definitions())
    except Exception:  # noqa: BLE001
        return None


def _text(node: Node | None) -> str:
    return node.text.decode("utf-8", "replace") if node is not None and node.text else ""


class Spellings:
    """What the file's one-word macros and pointer typedefs stand for."""

    def __init__(self, root: Node, source: bytes, view: Any = None) -> None:
        self.view = view
        self.macros: dict[str, str | None] = {}  # name -> its word, None where definitions differ
        self.pointers: dict[str, str] = {}  # typedef name -> the space its pointer points into
        self.elements: dict[str, str] = {}  # typedef name -> the space its qualified type is in
        definitions = _definitions(view)  # (the file's and its headers': hashcat's `KERNEL_FQ`)
        if definitions is not None:
            for m in definitions:
                word = _WORDS.get(m.body.strip()) if m.params is None and not m.variadic else None
                if word is not None or m.name in self.macros:
                    self.macros[m.name] = word if self.macros.get(m.name, word) == word else None
        if b"#define" not in source and b"typedef" not in source:
            return
        stack = list(root.named_children)
        while stack:
            node = stack.pop()
            if node.type in _BLOCKS:
                stack.extend(node.named_children)
            elif node.type == "preproc_def" and definitions is None:
                self._define(node)
            elif node.type == "type_definition":
                self._typedef(node)

    def _define(self, node: Node) -> None:
        name = _text(node.child_by_field_name("name"))
        word = _WORDS.get(_text(node.child_by_field_name("value")).strip())
        if word is not None:
            self.macros[name] = word if self.macros.get(name, word) == word else None
        elif name in self.macros:
            self.macros[name] = None  # another definition too: ask the view which one holds

    def _typedef(self, node: Node) -> None:
        space = next((_WORDS.get(_text(q)) for c in node.children if c.type == "type_qualifier"
                      for q in c.children if q.type == "address_space_qualifier"), None)
        if space not in SPACES:
            return
        for d in node.children_by_field_name("declarator"):
            inner = d.child_by_field_name("declarator") if d.type == "pointer_declarator" else None
            if inner is not None and inner.type == "type_identifier":
                self.pointers[_text(inner)] = space
            elif d.type == "type_identifier":  # `typedef __global int gint;`: the element's space
                self.elements[_text(d)] = space

    def __bool__(self) -> bool:
        return bool(self.macros or self.pointers or self.elements)

    def word(self, ident: Node) -> str | None:
        """The word ('kernel', 'global', ...) the macro named by `ident` stands for where it is used."""
        name = _text(ident)
        if name not in self.macros:
            return None
        if self.view is not None:
            try:  # the preprocessor view is someone else's code: never stop the rules over it
                m = self.view.macro_at(name, ident.start_byte)
            except Exception:  # noqa: BLE001
                return None
            if m is None or getattr(m, "params", None) is not None:
                return None
            return _WORDS.get((getattr(m, "body", "") or "").strip())
        return self.macros[name]

    def modifiers(self, node: Node) -> list[str]:
        """The words of `node`'s macro modifiers (a declaration's, a function definition's)."""
        out = []
        for c in node.children:
            if c.type == "macro_modifier" and c.named_child_count == 1 and c.named_children[0].type == "identifier":
                w = self.word(c.named_children[0])
                if w is not None:
                    out.append(w)
        return out

    def is_kernel(self, func: Node) -> bool:
        """A function definition whose specifier is a macro standing for `__kernel`."""
        return bool(self.macros) and "kernel" in self.modifiers(func)

    def space(self, decl: Node) -> str | None:
        """The address space a declaration's macro modifier spells (`GLOBAL int *p`)."""
        if not self.macros:
            return None
        return next((w for w in self.modifiers(decl) if w in SPACES), None)

    def pointer_space(self, decl: Node) -> str | None:
        """The space a declaration's typedef'd pointer type points into (`gptr p`)."""
        t = decl.child_by_field_name("type")
        return self.pointers.get(_text(t)) if self.pointers and t is not None and t.type == "type_identifier" \
            else None

    def element_space(self, decl: Node) -> str | None:
        """The space of a declaration whose type is a typedef'd qualified element (`gint *p`,
        `lfloat t[16]`): as if the qualifier were written in the declaration."""
        t = decl.child_by_field_name("type")
        return self.elements.get(_text(t)) if self.elements and t is not None and t.type == "type_identifier" \
            else None

    def key(self) -> tuple:
        """What the file spells, for memo keys of results read through these names."""
        return (tuple(sorted(self.macros.items(), key=str)), tuple(sorted(self.pointers.items())),
                tuple(sorted(self.elements.items())))

    def words(self) -> frozenset[bytes]:
        """Names that may spell `__global` or `__local` (the race prefilter's extra words)."""
        return frozenset(n.encode() for n, w in (*self.macros.items(), *self.pointers.items(),
                                                 *self.elements.items()) if w in (None, "global", "local"))


